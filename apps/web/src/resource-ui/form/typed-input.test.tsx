import { labelledPhoneSchema, measurementUnitsResource, phoneField, taxInputSchema } from '@dukkan/contract';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { mergedTexts } from '../../test/texts.ts';
import { ResourceForm } from './resource-form.tsx';

/**
 * Issue 14: what Egyptian users type is accepted (Arabic-Indic digits in phones and numbers, a
 * number in groups), normalized by the contract's schemas before the rules; and each language's
 * box keeps its own direction in the Arabic UI.
 */
async function switchToArabic() {
  if (!i18next.hasResourceBundle('ar', 'translation'))
    i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
  await i18next.changeLanguage('ar');
}

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

function renderForm(props: Pick<Parameters<typeof ResourceForm>[0], 'fields' | 'schema'>) {
  const onSubmit = vi.fn();
  const view = render(<ResourceForm {...props} onSubmit={onSubmit} />);
  return { ...view, onSubmit, user: userEvent.setup() };
}

const input = (container: HTMLElement, name: string) =>
  container.querySelector(`[data-field="${name}"] input`) as HTMLInputElement;

describe('each language’s box in its own direction', () => {
  it('in the Arabic UI the English name is left to right and the Arabic one right to left; the code is left to right', async () => {
    await switchToArabic();
    const form = measurementUnitsResource.form!;
    const { container } = renderForm({ fields: form.fields, schema: form.schema });
    const english = input(container, 'name.en');
    const arabic = input(container, 'name.ar');
    expect([english.dir, english.lang]).toEqual(['ltr', 'en']);
    expect(english.className).toContain('text-start');
    expect([arabic.dir, arabic.lang]).toEqual(['rtl', 'ar']);
    expect(input(container, 'code').dir).toBe('ltr');
    // Other free text follows what is typed in it.
    expect(input(container, 'symbol').dir).toBe('auto');
  });

  it('the same in the English UI', () => {
    const form = measurementUnitsResource.form!;
    const { container } = renderForm({ fields: form.fields, schema: form.schema });
    expect(input(container, 'name.en').dir).toBe('ltr');
    expect(input(container, 'name.ar').dir).toBe('rtl');
  });
});

describe('Arabic-Indic digits typed in the form', () => {
  it('a phone typed ٠١٠٠٢٣٤٥٦٧٨ is submitted as 01002345678, in a left-to-right tel box', async () => {
    await switchToArabic();
    const { user, onSubmit, container } = renderForm({
      fields: [{ name: 'phone', type: 'phone', label: 'phone', required: true }],
      schema: z.object({ phone: labelledPhoneSchema }),
    });
    const number = container.querySelector('input[type="tel"]') as HTMLInputElement;
    expect(number.dir).toBe('ltr');
    await user.type(input(container, 'phone'), 'الاستقبال');
    await user.type(number, '٠١٠٠٢٣٤٥٦٧٨');
    expect(number.value).toBe('٠١٠٠٢٣٤٥٦٧٨');
    await user.click(screen.getByRole('button', { name: 'حفظ' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ phone: { label: 'الاستقبال', number: '01002345678' } });
  });

  it('a phone list: an international number in groups is submitted without them', async () => {
    const { user, onSubmit, container } = renderForm({
      fields: [{ name: 'phones', type: 'phoneNums', label: 'phones', numbersOnly: true }],
      schema: z.object({ phones: z.array(z.object({ number: phoneField })) }),
    });
    await user.type(container.querySelector('input[type="tel"]') as HTMLInputElement, '+20 100 123 4567');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ phones: [{ number: '+201001234567' }] });
  });

  it('a phone with letters is still refused under its box', async () => {
    const { user, onSubmit, container } = renderForm({
      fields: [{ name: 'phones', type: 'phoneNums', label: 'phones', numbersOnly: true }],
      schema: z.object({ phones: z.array(z.object({ number: phoneField })) }),
    });
    await user.type(container.querySelector('input[type="tel"]') as HTMLInputElement, '0100 abc 4567');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^Enter a valid phone number/)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a number typed ١٤٫٥ is submitted as 14.5, from a decimal keypad', async () => {
    const { user, onSubmit, container } = renderForm({
      fields: [{ name: 'rate', type: 'number', label: 'rate' }],
      schema: z.object({ rate: taxInputSchema.shape.rate }),
    });
    const rate = input(container, 'rate');
    expect([rate.type, rate.inputMode, rate.dir]).toEqual(['text', 'decimal', 'ltr']);
    await user.type(rate, '١٤٫٥');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ rate: 14.5 });
  });
});
