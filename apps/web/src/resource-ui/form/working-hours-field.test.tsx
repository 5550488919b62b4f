import { type FormEntry, workingHoursFormField, workingHoursFormValues } from '@dukkan/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { mergedTexts } from '../../test/texts.ts';
import { ResourceForm } from './resource-form.tsx';

const fields: FormEntry[] = [
  {
    name: 'workingHours',
    type: 'workingHours',
    label: 'Working hours',
    defaultValue: workingHoursFormValues([]),
  },
];
const schema = z.object({ workingHours: workingHoursFormField });

function renderHours(defaultValues?: Record<string, unknown>) {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(<ResourceForm fields={fields} schema={schema} onSubmit={onSubmit} defaultValues={defaultValues} />);
  return {
    user,
    submit: () => user.click(document.querySelector('button[type="submit"]') as HTMLButtonElement),
    values: () => onSubmit.mock.calls.at(-1)?.[0],
    onSubmit,
  };
}
// A time input has no textbox role in jsdom's tree; it is found by its accessible name.
const time = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('WorkingHoursField', () => {
  it('takes a night shift (20:00 → 02:00), says it ends the next day, and saves it', async () => {
    const { user, submit, values } = renderHours();
    await user.type(time('Thursday opens'), '20:00');
    await user.type(time('Thursday closes'), '02:00');
    expect(screen.getByText('Closes the next day')).toBeTruthy();
    expect(time('Thursday closes').getAttribute('aria-describedby')).toBeTruthy();
    await submit();
    await waitFor(() =>
      expect(values()).toEqual({ workingHours: [{ day: 'thursday', opensAt: 72_000, closesAt: 7_200 }] }),
    );
  });

  it('marks a day closed: its times go away and it is not listed (a day not listed is closed)', async () => {
    const { user, submit, values } = renderHours();
    await user.click(screen.getByRole('checkbox', { name: 'Friday closed' }));
    expect(screen.queryByLabelText('Friday opens')).toBeNull();
    expect(screen.queryByLabelText('Friday closes')).toBeNull();
    await user.type(time('Monday opens'), '09:00');
    await user.type(time('Monday closes'), '17:00');
    await submit();
    await waitFor(() =>
      expect(values()).toEqual({ workingHours: [{ day: 'monday', opensAt: 32_400, closesAt: 61_200 }] }),
    );
  });

  it('"same hours every day" fills every day not marked closed with the first day\'s hours', async () => {
    const { user, submit, values } = renderHours();
    const same = screen.getByRole('button', { name: 'Same hours every day' }) as HTMLButtonElement;
    expect(same.disabled).toBe(true); // nothing to copy yet
    await user.click(screen.getByRole('checkbox', { name: 'Friday closed' }));
    await user.type(time('Monday opens'), '09:00');
    await user.type(time('Monday closes'), '17:30');
    await user.click(same);
    expect(time('Sunday opens').value).toBe('09:00');
    expect(time('Sunday closes').value).toBe('17:30');
    await submit();
    const open = { opensAt: 32_400, closesAt: 63_000 };
    await waitFor(() =>
      expect(values()).toEqual({
        workingHours: [
          { day: 'monday', ...open },
          { day: 'tuesday', ...open },
          { day: 'wednesday', ...open },
          { day: 'thursday', ...open },
          { day: 'saturday', ...open },
          { day: 'sunday', ...open },
        ],
      }),
    );
  });

  it('an empty closing time gets its own message, not the bad-time one', async () => {
    const { user, submit, onSubmit } = renderHours();
    await user.type(time('Tuesday opens'), '09:00');
    await submit();
    const closes = time('Tuesday closes');
    await waitFor(() => expect(closes.getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById(closes.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe('Enter a closing time, or mark the day closed');
    expect(onSubmit).not.toHaveBeenCalled();
    // Equal times are a bad time, said differently.
    await user.type(closes, '09:00');
    await submit();
    await waitFor(() =>
      expect(document.getElementById(closes.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'Enter a valid time; opening and closing cannot be the same',
      ),
    );
  });

  it('reads an old record (open days only): the days it leaves out are closed', () => {
    renderHours({
      workingHours: workingHoursFormValues([{ day: 'monday', opensAt: 32_400, closesAt: 61_200 }]),
    });
    expect(time('Monday opens').value).toBe('09:00');
    expect((screen.getByRole('checkbox', { name: 'Monday closed' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Sunday closed' }) as HTMLInputElement).checked).toBe(true);
  });

  it('speaks Arabic: day names, the closed box and the message', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const { user, submit } = renderHours();
    const group = screen.getByRole('group', { name: 'Working hours' });
    expect(within(group).getByRole('checkbox', { name: 'الجمعة: مغلق' })).toBeTruthy();
    await user.type(time('الثلاثاء: يفتح'), '09:00');
    await submit();
    await waitFor(() => expect(screen.getByText('أدخل وقت الإغلاق، أو اجعل اليوم مغلقًا')).toBeTruthy());
  });
});
