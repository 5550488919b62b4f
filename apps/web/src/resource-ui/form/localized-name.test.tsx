import { type MeasurementUnitRecord, measurementUnitsResource } from '@dukkan/contract';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { callsTo, listPage, type mockFetch, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { renderResourceScreen } from '../render-resource-screen.tsx';
import { ResourceForm } from './resource-form.tsx';

/**
 * A record needs a name in one language or the other, not always English (an Arabic-only shop
 * names its units in Arabic), and shows it by spec §9's fallback. A real declaration
 * (measurement units) through the generic form and list.
 */
const form = measurementUnitsResource.form!;
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);

const unit = (id: string, code: string, name: MeasurementUnitRecord['name']): MeasurementUnitRecord => ({
  id,
  code,
  name,
  symbol: code.toLowerCase(),
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const box = unit('5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a01', 'BOX', [{ locale: 'ar', value: 'علبة' }]);
const cup = unit('5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a02', 'CUP', [{ locale: 'en', value: 'Cup' }]);

function renderUnits(routes: Parameters<typeof mockFetch>[0]) {
  return renderResourceScreen(measurementUnitsResource, 'Units', admin, routes);
}

afterEach(async () => {
  // Unmounted first: back in English, a mounted list would refetch past the stubbed fetch.
  cleanup();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('a localized name in the generic form', () => {
  function renderUnitForm() {
    const onSubmit = vi.fn();
    const view = render(<ResourceForm fields={form.fields} schema={form.schema} onSubmit={onSubmit} />);
    return { ...view, onSubmit, user: userEvent.setup() };
  }

  it('saves a name given in Arabic only', async () => {
    const { user, onSubmit } = renderUnitForm();
    await user.type(screen.getByLabelText('Code', { exact: true }), 'BOX');
    await user.type(screen.getByLabelText('Name (Arabic)'), 'علبة');
    await user.type(screen.getByLabelText('Symbol'), 'box');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      code: 'BOX',
      name: [{ locale: 'ar', value: 'علبة' }],
      symbol: 'box',
    });
  });

  it('refuses no name in either language, under the English box; neither box is marked alone', async () => {
    const { user, onSubmit, container } = renderUnitForm();
    for (const field of ['name.en', 'name.ar']) {
      const frame = container.querySelector(`[data-field="${field}"]`) as HTMLElement;
      expect(within(frame).queryByText('*')).toBeNull();
      expect(within(frame).queryByText('Optional')).toBeNull();
    }
    await user.type(screen.getByLabelText('Code', { exact: true }), 'BOX');
    await user.type(screen.getByLabelText('Name (Arabic)'), '   ');
    await user.type(screen.getByLabelText('Symbol'), 'box');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const english = container.querySelector('[data-field="name.en"]') as HTMLElement;
    expect(await within(english).findByText('Name is required')).toBeTruthy();
    expect(screen.getByLabelText('Name (English)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name (Arabic)').getAttribute('aria-invalid')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('a record named in one language, in the list and its dialogs', () => {
  it('shows the Arabic name to an English reader, and the English one to an Arabic reader', async () => {
    renderUnits([{ path: '/api/measurement-units', body: listPage([box, cup]) }]);
    expect(await screen.findByRole('row', { name: /علبة/ })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Cup/ })).toBeTruthy();

    if (!i18next.hasResourceBundle('ar', 'translation')) {
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    }
    await i18next.changeLanguage('ar');
    expect(await screen.findByRole('row', { name: /Cup/ })).toBeTruthy();
    expect(screen.getByRole('row', { name: /علبة/ })).toBeTruthy();
  });

  it('creates a unit named in Arabic only', async () => {
    const person = userEvent.setup();
    const { calls } = renderUnits([
      { path: '/api/measurement-units', body: listPage([]) },
      { method: 'POST', path: '/api/measurement-units', status: 201, body: { data: box } },
    ]);
    await person.click((await screen.findAllByRole('button', { name: /^New/ }))[0]!);
    const dialog = within(await screen.findByRole('dialog'));
    await person.type(dialog.getByLabelText('Code', { exact: true }), 'BOX');
    await person.type(dialog.getByLabelText('Name (Arabic)'), 'علبة');
    await person.type(dialog.getByLabelText('Symbol'), 'box');
    await person.click(dialog.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(callsTo(calls, '/api/measurement-units', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/measurement-units', 'POST')[0]?.body).toEqual({
      code: 'BOX',
      name: [{ locale: 'ar', value: 'علبة' }],
      symbol: 'box',
    });
  });

  it('edits an Arabic-only unit: an empty English box, and the name sent without it', async () => {
    const person = userEvent.setup();
    const { calls } = renderUnits([
      { path: '/api/measurement-units', body: listPage([box]) },
      { method: 'PATCH', path: `/api/measurement-units/${box.id}`, body: { data: box } },
    ]);
    const row = await screen.findByRole('row', { name: /علبة/ });
    await person.click(within(row).getByRole('button', { name: /^Edit/ }));
    const dialog = within(await screen.findByRole('dialog'));
    expect((dialog.getByLabelText('Name (English)') as HTMLInputElement).value).toBe('');
    const arabic = dialog.getByLabelText('Name (Arabic)') as HTMLInputElement;
    expect(arabic.value).toBe('علبة');
    await person.clear(arabic);
    await person.type(arabic, 'صندوق');
    await person.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, `/api/measurement-units/${box.id}`, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, `/api/measurement-units/${box.id}`, 'PATCH')[0]?.body).toMatchObject({
      name: [{ locale: 'ar', value: 'صندوق' }],
    });
  });
});
