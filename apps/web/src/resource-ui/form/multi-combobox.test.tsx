import type { FormField } from '@dukkan/contract';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Dialog, DialogBody } from '../../components/ui/dialog.tsx';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { mergedTexts } from '../../test/texts.ts';
import { ResourceForm } from './resource-form.tsx';
import { foldForSearch } from './search-text.ts';

/**
 * Issue 14: a long multi-choice list (every currency) is one searchable combobox with chips, not a
 * checkbox per choice (167 Tab presses to the Create button of New brand).
 */
const currencies: FormField = {
  name: 'currencies',
  type: 'select',
  isMulti: true,
  label: 'Currencies',
  optionSource: { kind: 'currencies' },
};

function renderForm(defaultValues: Record<string, unknown> = {}, wrap = (form: ReactElement) => form) {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(
    wrap(
      <ResourceForm
        fields={[currencies, { name: 'note', type: 'text', label: 'Note' }]}
        schema={z.looseObject({})}
        defaultValues={defaultValues}
        onSubmit={onSubmit}
      />,
    ),
  );
  return { user, onSubmit, sent: () => onSubmit.mock.calls.at(-1)?.[0] };
}

const box = () => screen.findByRole('combobox', { name: 'Currencies' });
const listbox = () => screen.queryByRole('listbox', { name: 'Currencies' });
const options = () => within(listbox() as HTMLElement).queryAllByRole('option');
const names = () => options().map((option) => option.textContent);

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

describe('a long multi select is a searchable combobox', () => {
  it('is one tab stop (no checkbox per currency), an ARIA 1.2 combobox that opens a multi-select listbox', async () => {
    const { user } = renderForm();
    const input = await box();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    await user.tab();
    expect(document.activeElement).toBe(input);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
    await user.click(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(listbox()?.getAttribute('aria-multiselectable')).toBe('true');
    expect(input.getAttribute('aria-controls')).toBe(listbox()?.id);
    expect(options().length).toBeGreaterThan(100);
  });

  it('filters by code, by English name, by Arabic name, case- and diacritics-insensitive; says when nothing matches', async () => {
    const { user } = renderForm();
    const input = await box();
    await user.type(input, 'egp');
    expect(names()).toEqual(['EGP · Egyptian Pound']);
    await user.clear(input);
    await user.type(input, 'SAUDI');
    expect(names()).toEqual(['SAR · Saudi Riyal']);
    await user.clear(input);
    await user.type(input, 'جنيه مصري');
    expect(names()).toEqual(['EGP · Egyptian Pound']);
    await user.clear(input);
    await user.type(input, 'zzzz');
    expect(options()).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toBe('Nothing matches');
    // No active descendant pointing at an option that is not there.
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
  });

  it('arrows and Enter add and remove choices, the list stays open, and the values are submitted in order', async () => {
    const { user, onSubmit, sent } = renderForm();
    const input = await box();
    await user.type(input, 'egp');
    await user.keyboard('{Enter}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect((input as HTMLInputElement).value).toBe('');
    await user.type(input, 'dollar');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const highlighted = document.getElementById(input.getAttribute('aria-activedescendant') ?? '');
    expect(highlighted?.textContent).toBe(names()[2]);
    await user.keyboard('{Enter}');
    const third = highlighted?.textContent?.slice(0, 3);
    await user.type(input, 'usd');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Remove USD · US Dollar' })).toBeTruthy();
    // Enter on a chosen one takes it back out.
    await user.type(input, 'usd');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: 'Remove USD · US Dollar' })).toBeNull();
    await user.type(input, 'usd');
    await user.keyboard('{Enter}');
    const usd = options().find((option) => option.textContent?.startsWith('USD'));
    expect(usd?.getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(sent()).toMatchObject({ currencies: ['EGP', third, 'USD'] });
  });

  it('a click on an option adds it and keeps the list open; a second click takes it out', async () => {
    const { user } = renderForm();
    const input = await box();
    await user.type(input, 'saudi');
    await user.click(screen.getByRole('option', { name: 'SAR · Saudi Riyal' }));
    expect(screen.getByRole('button', { name: 'Remove SAR · Saudi Riyal' })).toBeTruthy();
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(input);
    await user.click(screen.getByRole('option', { name: 'SAR · Saudi Riyal' }));
    expect(screen.queryByRole('button', { name: 'Remove SAR · Saudi Riyal' })).toBeNull();
  });

  it('leaving the box with Tab chooses nothing', async () => {
    const { user, onSubmit, sent } = renderForm();
    const input = await box();
    await user.type(input, 'egp');
    await user.tab();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(sent()?.currencies ?? []).toEqual([]);
  });

  it('shows the chosen values as chips whose labelled Remove buttons take them out; Backspace removes the last', async () => {
    const { user, onSubmit, sent } = renderForm({ currencies: ['EGP', 'SAR', 'USD'] });
    const input = await box();
    const remove = screen.getByRole('button', { name: 'Remove SAR · Saudi Riyal' });
    // Reachable with the keyboard: Shift+Tab from the box lands on the last chip's button.
    await user.click(input);
    await user.keyboard('{Escape}');
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove USD · US Dollar' }));
    await user.click(remove);
    expect(document.activeElement).toBe(input);
    await user.keyboard('{Backspace}');
    expect(
      screen.getAllByRole('button', { name: /^Remove/ }).map((button) => button.textContent),
    ).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(sent()).toMatchObject({ currencies: ['EGP'] });
  });

  it('in a dialog, Escape closes the list and not the dialog; a second Escape closes the dialog', async () => {
    const onOpenChange = vi.fn();
    const { user } = renderForm({}, (form) => (
      <Dialog open onOpenChange={onOpenChange} title="New brand">
        <DialogBody>{form}</DialogBody>
      </Dialog>
    ));
    const input = await box();
    await user.click(input);
    await user.type(input, 'eg');
    expect(listbox()).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(listbox()).toBeNull();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(input);
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('in Arabic, names the currencies in Arabic, finds them by English name and labels the chips "إزالة …"', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const { user } = renderForm({ currencies: ['EGP'] });
    const input = await screen.findByRole('combobox', { name: 'Currencies' });
    const chip = screen.getByRole('button', { name: /^إزالة EGP · / });
    expect(chip.getAttribute('aria-label')).toMatch(/جنيه/);
    await user.type(input, 'saudi riyal');
    expect(names()).toHaveLength(1);
    expect(names()[0]).toMatch(/^SAR · .*ريال/);
    await user.clear(input);
    await user.type(input, 'لا شيء هنا');
    expect(screen.getByRole('status').textContent).toBe('لا توجد نتائج مطابقة');
  });

  it('a short list (8 choices or fewer) stays checkboxes', async () => {
    render(
      <ResourceForm
        fields={[
          {
            name: 'days',
            type: 'select',
            isMulti: true,
            label: 'Days',
            options: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({
              value: day,
              label: day,
            })),
          },
        ]}
        schema={z.looseObject({})}
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getAllByRole('checkbox')).toHaveLength(7);
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});

describe('foldForSearch', () => {
  it('drops case, accents, Arabic diacritics and tatweel, and unifies alef, yeh, teh marbuta and digits', () => {
    expect(foldForSearch('Réunion')).toBe(foldForSearch('reunion'));
    expect(foldForSearch('جُنَيْه مِصْرِيّ')).toBe(foldForSearch('جنيه مصري'));
    expect(foldForSearch('إمارات')).toBe(foldForSearch('امارات'));
    expect(foldForSearch('مـصـر')).toBe('مصر');
    expect(foldForSearch('ليرة')).toBe(foldForSearch('ليره'));
    expect(foldForSearch('٢٠٢٤')).toBe('2024');
  });
});
