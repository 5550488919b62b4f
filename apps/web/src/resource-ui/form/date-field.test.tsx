import type { FormEntry } from '@dukkan/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ResourceForm } from './resource-form.tsx';

// "Today" is 15 March 2026 (only Date is faked).
function renderDateForm() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 2, 15, 12));
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  const fields: FormEntry[] = [{ name: 'created', type: 'date', label: 'Creation date' }];
  render(<ResourceForm fields={fields} schema={z.object({ created: z.string() })} onSubmit={onSubmit} />);
  const submit = () => user.click(screen.getByRole('button', { name: 'Save' }));
  return { user, submit, values: () => onSubmit.mock.calls.at(-1)?.[0] };
}

describe('DateField: month and year lists', () => {
  beforeAll(async () => {
    await import('./date-field.tsx');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await i18next.changeLanguage('en');
  });

  it('jumps to June 2015 and picks the 9th in four steps after opening', async () => {
    const { user, submit, values } = renderDateForm();
    await user.click(await screen.findByRole('button', { name: 'Creation date' }));
    const calendar = screen.getByRole('dialog');
    const year = within(calendar).getByRole('combobox', { name: /year/i });
    const month = within(calendar).getByRole('combobox', { name: /month/i });
    // The years run from 1950 to this year, no further.
    const years = within(year)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(years[0]).toBe('1950');
    expect(years.at(-1)).toBe('2026');
    await user.selectOptions(year, '2015');
    await user.selectOptions(month, within(month).getByRole('option', { name: 'June' }));
    await user.click(within(calendar).getByRole('button', { name: /June 9th, 2015/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await submit();
    await waitFor(() => expect(values()).toEqual({ created: '2015-06-09' }));
  });

  it('works from the keyboard: Tab to the lists, a year, Tab to the days, arrows and Enter', async () => {
    const { user, submit, values } = renderDateForm();
    const trigger = await screen.findByRole('button', { name: 'Creation date' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const calendar = await screen.findByRole('dialog');
    const month = within(calendar).getByRole('combobox', { name: /month/i });
    const year = within(calendar).getByRole('combobox', { name: /year/i });
    // The first stop in the calendar is the month list, then the year list (what is seen first).
    await waitFor(() => expect(document.activeElement).toBe(month));
    await user.tab();
    expect(document.activeElement).toBe(year);
    await user.selectOptions(year, '2015'); // a native select: arrows or typing "2015" choose
    await user.tab(); // previous month
    await user.tab(); // next month
    await user.tab(); // the grid's one focusable day: the month's first
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/March 1st, 2015/);
    await user.keyboard('{ArrowDown}{ArrowRight}{Enter}'); // a week later, then the next day
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await submit();
    await waitFor(() => expect(values()).toEqual({ created: '2015-03-09' }));
  });

  it('names the months in Arabic and writes the years in Arabic-Indic digits, right to left', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const { user } = renderDateForm();
    await user.click(await screen.findByRole('button', { name: 'Creation date' }));
    const calendar = screen.getByRole('dialog');
    expect(calendar.querySelector('.rdp-root')?.getAttribute('dir')).toBe('rtl');
    const year = within(calendar).getByRole('combobox', { name: 'اختر السنة' });
    const month = within(calendar).getByRole('combobox', { name: 'اختر الشهر' });
    expect(within(year).getAllByRole('option').at(-1)?.textContent).toBe('٢٠٢٦');
    expect(within(month).getAllByRole('option')[0]?.textContent).toBe('يناير');
    await user.selectOptions(year, '2015');
    expect(within(calendar).getByRole('button', { name: /، ٩ مارس ٢٠١٥/ })).toBeTruthy();
  });

  it("takes the theme's colours: the accent is the brand colour, in light and dark", async () => {
    const { user } = renderDateForm();
    await user.click(await screen.findByRole('button', { name: 'Creation date' }));
    const calendar = screen.getByRole('dialog');
    const root = calendar.querySelector('.rdp-root');
    expect(root?.className).toContain('[--rdp-accent-color:var(--color-brand-700)]');
    expect(root?.className).toContain('dark:[--rdp-accent-color:var(--color-brand-300)]');
    const day = within(calendar).getByRole('button', { name: /March 10th, 2026/ });
    expect(day.className).toContain('enabled:hover:bg-slate-100');
    await user.click(day);
    await user.click(screen.getByRole('button', { name: 'Creation date' }));
    // The picked day is filled with the accent.
    const picked = within(screen.getByRole('dialog')).getByRole('button', { name: /March 10th, 2026/ });
    expect(picked.closest('td')?.className).toContain('*:bg-(--rdp-accent-color)');
  });
});

describe("DateField: today is the workspace's, in its time zone", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // 12:00 UTC on 15 March 2026: already the 16th in Kiritimati (UTC+14), still the 15th in Pago Pago (UTC-11).
  it.each([
    ['Pacific/Kiritimati', false],
    ['Pacific/Pago_Pago', true],
  ])('in %s the 16th is disabled: %s', async (timeZone, sixteenthDisabled) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-15T12:00:00.000Z'));
    const user = testUser([{ id: 'w-1', name: 'Shop', grant: 'admin' }]);
    user.adminWorkspaces = [{ ...user.adminWorkspaces[0]!, timeZone }];
    const fields: FormEntry[] = [{ name: 'created', type: 'date', label: 'Creation date' }];
    renderSignedIn(
      <ResourceForm fields={fields} schema={z.object({ created: z.string() })} onSubmit={vi.fn()} />,
      { user },
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Creation date' }));
    const calendar = screen.getByRole('dialog');
    const day = (name: RegExp) => within(calendar).getByRole('button', { name }) as HTMLButtonElement;
    expect(day(/March 15th, 2026/).disabled).toBe(false);
    expect(day(/March 16th, 2026/).disabled).toBe(sixteenthDisabled);
    expect(day(/March 17th, 2026/).disabled).toBe(true);
  });
});
