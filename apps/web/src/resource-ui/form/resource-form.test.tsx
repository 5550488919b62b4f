import type { FormEntry, FormField } from '@dukkan/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { ApiError } from '../../lib/api-client.ts';
import { UnknownComponentError } from '../../lib/component-registry.ts';
import { mergedTexts } from '../../test/texts.ts';
import { useFormMessageText, validityMessage } from './form-messages.ts';
import { ResourceForm, type ResourceFormProps } from './resource-form.tsx';

type Props = Partial<ResourceFormProps<z.ZodType>> & { fields: readonly FormEntry[] };

function renderForm({ fields, schema = z.looseObject({}), ...rest }: Props) {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  const view = render(<ResourceForm fields={fields} schema={schema} onSubmit={onSubmit} {...rest} />);
  const submit = () => user.click(screen.getByRole('button', { name: 'Save' }));
  return { ...view, user, onSubmit, submit, values: () => onSubmit.mock.calls.at(-1)?.[0] };
}

const text = (name: string, extra: Partial<FormField> = {}): FormField => ({
  name,
  type: 'text',
  label: name,
  ...extra,
});

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('ResourceForm: labels and markers', () => {
  it('marks a required field with an asterisk and an optional one with Optional, unless disabled', () => {
    const { container } = renderForm({
      fields: [
        text('code', { required: true }),
        text('note'),
        text('quiet', { disableRequiredIndicator: true }),
        text('hidden', { required: true, disableRequiredIndicator: true }),
      ],
    });
    const frame = (name: string) => container.querySelector(`[data-field="${name}"]`) as HTMLElement;
    expect(within(frame('code')).getByText('*')).toBeTruthy();
    expect(within(frame('code')).queryByText('Optional')).toBeNull();
    expect(within(frame('note')).getByText('Optional')).toBeTruthy();
    expect(within(frame('note')).queryByText('*')).toBeNull();
    for (const name of ['quiet', 'hidden']) {
      expect(within(frame(name)).queryByText('Optional')).toBeNull();
      expect(within(frame(name)).queryByText('*')).toBeNull();
    }
    expect(screen.getByLabelText('code').getAttribute('aria-required')).toBe('true');
  });

  it('shows a tooltip on focus, tied to its button as the description, and hides it on Escape', async () => {
    const { user } = renderForm({ fields: [text('code', { tooltipMessage: 'Unique in the workspace' })] });
    const button = screen.getByRole('button', { name: 'More information' });
    const tip = screen.getByText('Unique in the workspace');
    expect(button.getAttribute('aria-describedby')).toBe(tip.id);
    expect(tip.getAttribute('role')).toBe('tooltip');
    expect(tip.hidden).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(button);
    expect(tip.hidden).toBe(false);
    await user.keyboard('{Escape}');
    expect(tip.hidden).toBe(true);
  });

  it('lays a group out under its label in its columns (one on narrow screens)', () => {
    renderForm({
      fields: [
        { kind: 'group', label: 'Address', columns: 3, fields: [text('city'), text('street'), text('zip')] },
      ],
    });
    const group = screen.getByRole('region', { name: 'Address' });
    const grid = group.querySelector('[data-columns]') as HTMLElement;
    expect(grid.dataset.columns).toBe('3');
    expect(grid.className).toContain('grid-cols-1');
    expect(grid.className).toContain('lg:grid-cols-3');
    expect(within(group).getAllByRole('textbox')).toHaveLength(3);
  });

  it("throws 'Unknown component: {name}' for a field type it does not know", () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bad = { name: 'x', type: 'colour', label: 'x' } as unknown as FormField;
    expect(() => renderForm({ fields: [bad] })).toThrow(new UnknownComponentError('colour'));
    expect(() => renderForm({ fields: [bad] })).toThrow('Unknown component: colour');
    spy.mockRestore();
  });
});

describe('ResourceForm: inputs', () => {
  it('disables a disabled field, and shows a server message set through the form (a validation code)', async () => {
    const { submit } = renderForm({
      fields: [text('code'), text('locked', { disabled: true })],
      onSubmit: (_values, form) => form.setError('code', { message: 'CODE_MUST_BE_UNIQUE' }),
    });
    expect((screen.getByLabelText('locked') as HTMLInputElement).disabled).toBe(true);
    await submit();
    expect(await screen.findByText('This code must be unique')).toBeTruthy();
    expect(screen.getByLabelText('code').getAttribute('aria-invalid')).toBe('true');
  });

  it('submits text, password, number and time values through the schema', async () => {
    const schema = z.object({ title: z.string(), secret: z.string(), rate: z.number(), opens: z.string() });
    const { user, submit, values } = renderForm({
      schema,
      fields: [
        text('title'),
        { name: 'secret', type: 'password', label: 'secret' },
        { name: 'rate', type: 'number', label: 'rate', step: 0.5 },
        { name: 'opens', type: 'time', label: 'opens' },
      ],
    });
    await user.type(screen.getByLabelText('title'), 'Main');
    await user.type(screen.getByLabelText('secret'), 'hunter2');
    expect(screen.getByLabelText('secret').getAttribute('type')).toBe('password');
    await user.type(screen.getByLabelText('rate'), '12.5');
    expect(screen.getByLabelText('rate').getAttribute('inputmode')).toBe('decimal');
    fireEvent.input(screen.getByLabelText('opens'), { target: { value: '09:30' } });
    await submit();
    await waitFor(() =>
      expect(values()).toEqual({ title: 'Main', secret: 'hunter2', rate: 12.5, opens: '09:30' }),
    );
  });

  it('selects one value from a native select, and says so when there are no options', async () => {
    const schema = z.object({ brand: z.string().min(1) });
    const { user, submit, values, rerender } = renderForm({
      schema,
      fields: [
        {
          name: 'brand',
          type: 'select',
          label: 'brand',
          options: [
            { value: 'b1', label: 'Burger' },
            { value: 'b2', label: 'Pizza' },
          ],
        },
      ],
    });
    await user.selectOptions(screen.getByLabelText('brand'), 'b2');
    await submit();
    await waitFor(() => expect(values()).toEqual({ brand: 'b2' }));
    rerender(
      <ResourceForm
        schema={schema}
        onSubmit={vi.fn()}
        fields={[
          {
            name: 'brand',
            type: 'select',
            label: 'brand',
            options: [],
            noOptionsMessage: 'Add a brand first',
          },
        ]}
      />,
    );
    expect(screen.getByRole('option', { name: 'Add a brand first' })).toBeTruthy();
    expect((screen.getByLabelText('brand') as HTMLSelectElement).disabled).toBe(true);
  });

  it('selects several values in a multi select, and shows the default no-options text', async () => {
    const { user, submit, values, unmount } = renderForm({
      schema: z.object({ currencies: z.array(z.string()).min(1) }),
      fields: [
        {
          name: 'currencies',
          type: 'select',
          isMulti: true,
          label: 'currencies',
          options: [
            { value: 'EGP', label: 'Pound' },
            { value: 'USD', label: 'Dollar' },
            { value: 'SAR', label: 'Riyal' },
          ],
        },
      ],
    });
    const group = screen.getByRole('group', { name: 'currencies' });
    await user.click(within(group).getByLabelText('Pound'));
    await user.click(within(group).getByLabelText('Riyal'));
    await user.click(within(group).getByLabelText('Pound'));
    await submit();
    await waitFor(() => expect(values()).toEqual({ currencies: ['SAR'] }));
    unmount();
    renderForm({ fields: [{ name: 'tags', type: 'select', isMulti: true, label: 'tags', options: [] }] });
    expect(screen.getByText('No options')).toBeTruthy();
  });

  it('picks one radio', async () => {
    const { user, submit, values } = renderForm({
      schema: z.object({ source: z.enum(['walkIn', 'online']) }),
      fields: [
        {
          name: 'source',
          type: 'radio',
          label: 'source',
          options: [
            { value: 'walkIn', label: 'Walk-in' },
            { value: 'online', label: 'Online' },
          ],
        },
      ],
    });
    const group = screen.getByRole('group', { name: 'source' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    await user.click(screen.getByLabelText('Online'));
    await submit();
    await waitFor(() => expect(values()).toEqual({ source: 'online' }));
  });

  it('gives a slider its min, max and step (1 unless declared)', async () => {
    const { submit, values, unmount } = renderForm({
      schema: z.object({ rate: z.number() }),
      fields: [{ name: 'rate', type: 'slider', label: 'rate', defaultMin: 0, defaultMax: 100 }],
    });
    const slider = screen.getByRole('slider', { name: 'rate' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(['0', '100', '1', '0']);
    fireEvent.change(slider, { target: { value: '42' } });
    await submit();
    await waitFor(() => expect(values()).toEqual({ rate: 42 }));
    unmount();
    renderForm({
      fields: [{ name: 'rate', type: 'slider', label: 'rate', defaultMin: 10, defaultMax: 20, step: 5 }],
    });
    const stepped = screen.getByRole('slider', { name: 'rate' }) as HTMLInputElement;
    expect([stepped.min, stepped.max, stepped.step, stepped.value]).toEqual(['10', '20', '5', '10']);
  });
});

describe('ResourceForm: files', () => {
  it("keeps a chosen file, and clearing it sets the value to the text 'undefined'", async () => {
    const { user, submit, values } = renderForm({
      fields: [{ name: 'contract', type: 'upload', label: 'contract', accept: '.pdf' }],
      defaultValues: { contract: 'old.pdf' },
    });
    const input = screen.getByLabelText('contract') as HTMLInputElement;
    expect(input.accept).toBe('.pdf');
    expect(screen.getByText('Current file: old.pdf')).toBeTruthy();
    const file = new File(['x'], 'new.pdf', { type: 'application/pdf' });
    await user.upload(input, file);
    expect(screen.getByText('Current file: new.pdf')).toBeTruthy();
    await submit();
    await waitFor(() => expect(values()).toEqual({ contract: file }));
    await user.click(screen.getByRole('button', { name: 'Clear file' }));
    expect(screen.queryByText(/Current file/)).toBeNull();
    await submit();
    await waitFor(() => expect(values()).toEqual({ contract: 'undefined' }));
  });

  const png = (name: string) => new File(['png'], name, { type: 'image/png' });

  it('uploads images with a spinner while pending and adds their URLs (multiple)', async () => {
    let finish: (urls: string[]) => void = () => undefined;
    const uploadFiles = vi.fn(() => new Promise<string[]>((resolve) => (finish = resolve)));
    const { user, submit, values } = renderForm({
      fields: [{ name: 'images', type: 'imageUpload', label: 'images', multiple: true }],
      defaultValues: { images: ['/a.png'] },
      uploadFiles,
    });
    const input = screen.getByLabelText('images') as HTMLInputElement;
    expect(input.accept).toBe('image/*');
    expect(input.multiple).toBe(true);
    await user.upload(input, [png('b.png'), png('c.png')]);
    expect(uploadFiles).toHaveBeenCalledWith([expect.any(File), expect.any(File)]);
    expect(screen.getByRole('status').textContent).toContain('Uploading…');
    await act(async () => finish(['/b.png', '/c.png']));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('src'))).toEqual([
      '/a.png',
      '/b.png',
      '/c.png',
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove image 2' }));
    await submit();
    await waitFor(() => expect(values()).toEqual({ images: ['/a.png', '/c.png'] }));
  });

  it('replaces the image of a single field, and removing it empties the list', async () => {
    const uploadFiles = vi.fn(async () => ['/new.png']);
    const { user, submit, values } = renderForm({
      fields: [{ name: 'logo', type: 'imageUpload', label: 'logo' }],
      defaultValues: { logo: ['/old.png'] },
      uploadFiles,
    });
    await user.upload(screen.getByLabelText('logo'), png('new.png'));
    await waitFor(() => expect(screen.getByRole('img').getAttribute('src')).toBe('/new.png'));
    await user.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(screen.queryByRole('img')).toBeNull();
    await submit();
    await waitFor(() => expect(values()).toEqual({ logo: [] }));
  });

  it('refuses a file that is not an image', async () => {
    const uploadFiles = vi.fn(async () => ['/x']);
    const user = userEvent.setup({ applyAccept: false });
    render(
      <ResourceForm
        schema={z.looseObject({})}
        onSubmit={vi.fn()}
        uploadFiles={uploadFiles}
        fields={[{ name: 'logo', type: 'imageUpload', label: 'logo' }]}
      />,
    );
    await user.upload(
      screen.getByLabelText('logo'),
      new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByText('Only image files can be uploaded')).toBeTruthy();
    expect(uploadFiles).not.toHaveBeenCalled();
  });

  it('follows the file permissions: no uploader without view, no picker without add/edit, no remove without delete', () => {
    const fields: FormEntry[] = [{ name: 'logo', type: 'imageUpload', label: 'logo' }];
    const defaultValues = { logo: ['/old.png'] };
    const { unmount } = renderForm({
      fields,
      defaultValues,
      fileAccess: { view: false, change: true, remove: true },
    });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByText('logo')).toBeNull();
    unmount();

    renderForm({ fields, defaultValues, fileAccess: { view: true, change: false, remove: false } });
    expect(screen.getByRole('img').getAttribute('src')).toBe('/old.png');
    expect(screen.queryByRole('button', { name: 'Remove image 1' })).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });

  it("shows the server's reason when an upload is refused", async () => {
    const uploadFiles = vi.fn(async () => {
      throw new ApiError(400, 'VALIDATION', 'Validation failed', {
        statusCode: 400,
        code: 'VALIDATION',
        name: 'ValidationError',
        message: 'Validation failed',
        key: 'files.0',
        issues: [{ path: 'files.0', message: 'FILE_TOO_LARGE' }],
      });
    });
    const { user } = renderForm({
      fields: [{ name: 'logo', type: 'imageUpload', label: 'logo' }],
      uploadFiles,
    });
    await user.upload(screen.getByLabelText('logo'), png('big.png'));
    expect(await screen.findByText('This file is too large')).toBeTruthy();
  });
});

describe('ResourceForm: phones', () => {
  const phoneEntry = z.object({ label: z.string().trim().min(1), number: z.string().trim().min(1) });

  it('needs both the label and the number of a phone', async () => {
    const { user, submit, onSubmit, values } = renderForm({
      schema: z.object({ phone: phoneEntry }),
      fields: [{ name: 'phone', type: 'phone', label: 'phone', required: true }],
    });
    expect(screen.getByLabelText('Label').getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText('Number').getAttribute('aria-required')).toBe('true');
    await submit();
    await waitFor(() => expect(screen.getAllByText('Required')).toHaveLength(2));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Label'), 'Mobile');
    await submit();
    await waitFor(() => expect(screen.getAllByText('Required')).toHaveLength(1));
    expect(screen.getByLabelText('Number').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('Number'), '01000000000');
    await submit();
    await waitFor(() => expect(values()).toEqual({ phone: { label: 'Mobile', number: '01000000000' } }));
  });

  it('starts an empty phone list with one empty entry that cannot be removed; adds and removes entries', async () => {
    const { user, submit, values } = renderForm({
      schema: z.object({ phones: z.array(phoneEntry).min(1) }),
      fields: [{ name: 'phones', type: 'phoneNums', label: 'phones' }],
      defaultValues: { phones: [] },
    });
    expect(screen.getAllByLabelText(/^Number/)).toHaveLength(1);
    expect((screen.getByLabelText('Label Phone 1') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Remove phone 1' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Add phone' }));
    expect(screen.getAllByLabelText(/^Number/)).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Remove phone 1' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    await user.type(screen.getByLabelText('Label Phone 1'), 'Home');
    await user.type(screen.getByLabelText('Number Phone 1'), '0223456789');
    await user.type(screen.getByLabelText('Label Phone 2'), 'Mobile');
    await user.type(screen.getByLabelText('Number Phone 2'), '01000000000');
    await user.click(screen.getByRole('button', { name: 'Remove phone 1' }));
    expect((screen.getByRole('button', { name: 'Remove phone 1' }) as HTMLButtonElement).disabled).toBe(true);
    await submit();
    await waitFor(() => expect(values()).toEqual({ phones: [{ label: 'Mobile', number: '01000000000' }] }));
  });

  it('reads a list of plain strings as numbers without labels', () => {
    renderForm({
      fields: [{ name: 'phones', type: 'phoneNums', label: 'phones' }],
      defaultValues: { phones: ['0100', '0200'] },
    });
    expect((screen.getByLabelText('Number Phone 2') as HTMLInputElement).value).toBe('0200');
  });
});

describe('ResourceForm: dates', () => {
  // Only Date is faked: "today" is 15 March 2026, so the 20th is in the future.
  const setTodayToMarch15 = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 15, 12));
  };
  afterEach(() => vi.useRealTimers());
  // The calendar is a lazy chunk: loaded (and transformed) once here, so no test waits on it under
  // a busy machine's load (the first one used to time out finding the field's button).
  beforeAll(async () => {
    await import('./date-field.tsx');
  });
  const day = (n: number) =>
    screen.getByRole('button', { name: new RegExp(`March ${n}(st|nd|rd|th), 2026`) });

  it('closes a single date after one pick, and disables the days after today', async () => {
    setTodayToMarch15();
    const { user, submit, values } = renderForm({
      schema: z.object({ opened: z.string() }),
      fields: [{ name: 'opened', type: 'date', label: 'opened' }],
    });
    await user.click(await screen.findByRole('button', { name: 'opened' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect((day(20) as HTMLButtonElement).disabled).toBe(true);
    expect((day(15) as HTMLButtonElement).disabled).toBe(false);
    await user.click(day(20));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(day(5));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'opened' }).textContent).toContain('Mar');
    await submit();
    await waitFor(() => expect(values()).toEqual({ opened: '2026-03-05' }));
  });

  it('keeps a range open after the first pick and closes it after the second', async () => {
    setTodayToMarch15();
    const { user, submit, values } = renderForm({
      schema: z.object({ period: z.object({ from: z.string(), to: z.string() }) }),
      fields: [{ name: 'period', type: 'date', mode: 'range', label: 'period' }],
    });
    await user.click(await screen.findByRole('button', { name: 'period' }));
    await user.click(day(10));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(day(3));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await submit();
    await waitFor(() => expect(values()).toEqual({ period: { from: '2026-03-03', to: '2026-03-10' } }));
  });

  it('shows the calendar in Arabic, right to left', async () => {
    setTodayToMarch15();
    await switchToArabic();
    const { user } = renderForm({ fields: [{ name: 'opened', type: 'date', label: 'opened' }] });
    await user.click(await screen.findByRole('button', { name: 'opened' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.querySelector('[dir="rtl"]')).toBeTruthy();
    expect(dialog.textContent).toContain('مارس');
  });
});

async function switchToArabic() {
  if (!i18next.hasResourceBundle('ar', 'translation'))
    i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
  await i18next.changeLanguage('ar');
}

describe('ResourceForm: messages', () => {
  const schema = z.object({
    name: z.string().min(1),
    age: z.number().min(18),
    email: z.email(),
    code: z
      .string()
      .min(3)
      .regex(/^[A-Z]+$/),
    sku: z.string().regex(/^\d+$/),
    count: z.number(),
    pack: z.number().multipleOf(5),
    title: z.string().min(1, 'TITLE_IS_REQUIRED'),
  });
  const fields: FormEntry[] = [
    text('name', { required: true }),
    { name: 'age', type: 'number', label: 'age' },
    text('email'),
    text('code'),
    text('sku'),
    text('count'),
    { name: 'pack', type: 'number', label: 'pack' },
    text('title'),
  ];
  const fill = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.type(screen.getByLabelText('age'), '12');
    await user.type(screen.getByLabelText('email'), 'nope');
    await user.type(screen.getByLabelText('code'), 'a');
    await user.type(screen.getByLabelText('sku'), 'x1');
    await user.type(screen.getByLabelText('pack'), '7');
  };
  const messageOf = (name: string) => {
    const input = screen.getByLabelText(name);
    const id = input.getAttribute('aria-describedby');
    return id ? document.getElementById(id)?.textContent : undefined;
  };

  it("puts zod's generic messages under the fields, one per path, in English", async () => {
    const { user, submit, onSubmit } = renderForm({ schema, fields, defaultValues: { count: 'abc' } });
    await fill(user);
    await submit();
    await waitFor(() => expect(messageOf('name')).toBe('Required'));
    expect(messageOf('age')).toBe('Number must be greater than or equal to 18');
    expect(messageOf('email')).toBe('Invalid email');
    expect(messageOf('code')).toBe('String must contain at least 3 character(s)');
    expect(messageOf('sku')).toBe('This value does not match the required pattern');
    expect(messageOf('count')).toBe('Expected number, received string');
    expect(messageOf('pack')).toBe('This value does not match the required step');
    expect(messageOf('title')).toBe('Title is required');
    expect(screen.getByLabelText('name').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the same messages in Arabic, and follows a language switch', async () => {
    const { user, submit } = renderForm({ schema, fields, defaultValues: { count: 'abc' } });
    await fill(user);
    await submit();
    await waitFor(() => expect(messageOf('name')).toBe('Required'));
    await act(() => switchToArabic());
    expect(messageOf('name')).toBe('مطلوب');
    expect(messageOf('age')).toBe('يجب أن يكون الرقم أكبر من أو يساوي ١٨');
    expect(messageOf('email')).toBe('بريد إلكتروني غير صالح');
    expect(messageOf('code')).toBe('يجب أن يحتوي النص على ٣ حرف على الأقل');
    expect(messageOf('sku')).toBe('هذه القيمة لا تطابق النمط المطلوب');
    expect(messageOf('count')).toBe('المتوقع رقم، والمستلم نص');
    expect(messageOf('pack')).toBe('هذه القيمة لا تطابق الخطوة المطلوبة');
    expect(messageOf('title')).toBe(ar.validation.TITLE_IS_REQUIRED);
    expect(screen.getAllByText('اختياري')).toHaveLength(7);
  });
});

/** Renders one message through the form's text function. */
function Show({ message }: { message: string }) {
  return <p>{useFormMessageText()(message)}</p>;
}

describe('form messages', () => {
  const validity = (failed: keyof ValidityState) =>
    ({ valid: false, [failed]: true }) as unknown as ValidityState;
  const cases: [keyof ValidityState, string, string][] = [
    ['badInput', 'This value is not valid', 'هذه القيمة غير صالحة'],
    [
      'patternMismatch',
      'This value does not match the required pattern',
      'هذه القيمة لا تطابق النمط المطلوب',
    ],
    ['rangeOverflow', 'This value is too large', 'هذه القيمة كبيرة جدًا'],
    ['rangeUnderflow', 'This value is too small', 'هذه القيمة صغيرة جدًا'],
    ['stepMismatch', 'This value does not match the required step', 'هذه القيمة لا تطابق الخطوة المطلوبة'],
    ['tooLong', 'This value is too long', 'هذه القيمة طويلة جدًا'],
    ['tooShort', 'This value is too short', 'هذه القيمة قصيرة جدًا'],
    ['typeMismatch', 'This value does not match the required type', 'هذه القيمة لا تطابق النوع المطلوب'],
    ['valueMissing', 'This value is missing', 'هذه القيمة مفقودة'],
  ];

  it("names a native input's failed constraint in English and Arabic", async () => {
    expect(validityMessage({ valid: true } as ValidityState)).toBeNull();
    for (const [failed, english] of cases) {
      const { unmount } = render(<Show message={validityMessage(validity(failed)) ?? ''} />);
      expect(screen.getByText(english)).toBeTruthy();
      unmount();
    }
    await switchToArabic();
    for (const [failed, , arabic] of cases) {
      const { unmount } = render(<Show message={validityMessage(validity(failed)) ?? ''} />);
      expect(screen.getByText(arabic)).toBeTruthy();
      unmount();
    }
  });

  it('maps the upper bounds and array sizes too, and leaves unknown text as it is', async () => {
    const { submit, user } = renderForm({
      schema: z.object({
        code: z.string().max(2),
        qty: z.number().max(10),
        tags: z.array(z.string()).min(1),
      }),
      fields: [
        text('code'),
        { name: 'qty', type: 'number', label: 'qty' },
        { name: 'tags', type: 'select', isMulti: true, label: 'tags', options: [{ value: 'a', label: 'A' }] },
      ],
    });
    await user.type(screen.getByLabelText('code'), 'abc');
    await user.type(screen.getByLabelText('qty'), '11');
    await submit();
    await waitFor(() => expect(screen.getByText('String must contain at most 2 character(s)')).toBeTruthy());
    expect(screen.getByText('Number must be less than or equal to 10')).toBeTruthy();
    expect(screen.getByText('Array must contain at least 1 element(s)')).toBeTruthy();
    render(<Show message="Some server text" />);
    expect(screen.getByText('Some server text')).toBeTruthy();
  });
});
