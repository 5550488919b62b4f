import { locationsResource } from '@dukkan/contract';
import { onlineManager } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, listPage, type MockRoute, testUser } from '../test/render.tsx';
import { downtownLocation } from './location-test-data.ts';
import { renderResourceScreen } from './render-resource-screen.tsx';

/**
 * The generic create/edit dialog with a real declaration (locations: localized names, phones,
 * working hours): where the focus goes, and the question before unsaved changes are discarded.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);

const location = downtownLocation;

/** A row of the audit log: the location's code changed (its History). */
const renamed = {
  id: 'a1',
  at: '2026-11-29T08:15:00.000Z',
  actorKind: 'member',
  actorUserId: 'u-karim',
  actorName: 'Karim Adel',
  requestId: null,
  address: null,
  userAgent: null,
  action: 'update',
  resource: 'locations',
  recordId: location.id,
  changes: { code: ['LOC-1', 'LOC-2'] },
};

function renderLocations(routes: MockRoute[] = []) {
  return renderResourceScreen(locationsResource, 'Locations', admin, [
    { path: '/api/brands', body: listPage([]) },
    { path: '/api/locations', body: listPage([location]) },
    { path: '/api/audit-log', body: listPage([renamed]) },
    ...routes,
  ]);
}

async function openEditor() {
  const person = userEvent.setup();
  const mock = renderLocations([
    { method: 'PATCH', path: `/api/locations/${location.id}`, body: { data: location } },
  ]);
  const row = await screen.findByRole('row', { name: /Downtown/ });
  const edit = within(row).getByRole('button', { name: /^Edit/ });
  await person.click(edit);
  const dialog = await screen.findByRole('dialog');
  return { ...mock, person, edit, form: within(dialog) };
}

const editor = () => screen.queryByRole('dialog', { hidden: true });
const discardQuestion = () => screen.queryByRole('alertdialog', { name: 'Discard your changes?' });

afterEach(() => {
  onlineManager.setOnline(true);
  vi.unstubAllGlobals();
});

describe('ResourceEditorDialog', () => {
  it('closes an untouched form at once on Escape and gives the focus back to the row’s Edit button', async () => {
    const { person, edit } = await openEditor();
    await person.keyboard('{Escape}');
    expect(discardQuestion()).toBeNull();
    expect(editor()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(edit));
  });

  it('gives the focus back to the opener after saving, without asking', async () => {
    const { person, edit, form, calls } = await openEditor();
    await person.clear(form.getByLabelText('Code', { exact: true }));
    await person.type(form.getByLabelText('Code', { exact: true }), 'LOC-9');
    await person.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, `/api/locations/${location.id}`, 'PATCH')).toHaveLength(1));
    await waitFor(() => expect(editor()).toBeNull());
    expect(discardQuestion()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(edit));
  });

  it('asks before Cancel or Escape discards a change: Keep editing keeps it, Discard closes', async () => {
    const { person, edit, form, calls } = await openEditor();
    const code = form.getByLabelText('Code', { exact: true }) as HTMLInputElement;
    await person.type(code, '-B');

    await person.click(form.getByRole('button', { name: 'Cancel' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await person.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(editor()).not.toBeNull();
    expect(code.value).toBe('LOC-1-B');

    await person.keyboard('{Escape}');
    const again = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await person.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(editor()).toBeNull();
    expect(callsTo(calls, `/api/locations/${location.id}`, 'PATCH')).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(edit));
  });

  it('starts a new record on its first field', async () => {
    const person = userEvent.setup();
    renderLocations();
    const create = (await screen.findAllByRole('button', { name: 'New location' }))[0]!;
    await person.click(create);
    const form = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(document.activeElement).toBe(form.getByLabelText('Code', { exact: true })));
    await person.keyboard('{Escape}');
    expect(discardQuestion()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(create));
  });

  it('offline: Save sends nothing and says so, keeps the values, and Cancel still closes (nothing sent later)', async () => {
    const { person, edit, form, calls } = await openEditor();
    const code = form.getByLabelText('Code', { exact: true }) as HTMLInputElement;
    await person.type(code, '-B');
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    onlineManager.setOnline(false);

    await person.click(form.getByRole('button', { name: 'Save' }));
    expect((await form.findByRole('alert')).textContent).toBe(
      'You are offline. Nothing was saved; check your connection and try again.',
    );
    // Said once: the toast only says that the update failed.
    expect(await screen.findByText('Updating LOCATION failed.')).toBeTruthy();
    expect(screen.getAllByText(/You are offline/)).toHaveLength(1);
    expect(code.value).toBe('LOC-1-B');
    expect((form.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);

    await person.click(form.getByRole('button', { name: 'Cancel' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await person.click(within(question).getByRole('button', { name: 'Discard' }));
    expect(editor()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(edit));

    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    onlineManager.setOnline(true);
    expect(callsTo(calls, `/api/locations/${location.id}`, 'PATCH')).toHaveLength(0);
  });
});

describe('the editor’s History tab', () => {
  it('lists the record’s changes, newest first, keeping what was typed in the form', async () => {
    const { person, form, calls } = await openEditor();
    await person.clear(form.getByLabelText('Code', { exact: true }));
    await person.type(form.getByLabelText('Code', { exact: true }), 'LOC-9');
    await person.click(form.getByRole('tab', { name: 'History' }));
    const change = await screen.findByTestId('audit-change');
    expect(change.textContent?.replace(/\s/g, ' ')).toBe('Code:Before: LOC-1→After: LOC-2');
    const query = callsTo(calls, '/api/audit-log')[0]?.query;
    expect([query?.get('resource'), query?.get('recordId'), query?.get('sort')]).toEqual([
      'locations',
      location.id,
      '-at',
    ]);
    await person.click(form.getByRole('tab', { name: 'Details' }));
    expect((form.getByLabelText('Code', { exact: true }) as HTMLInputElement).value).toBe('LOC-9');
  });

  it('is not offered to whoever lacks viewAudit', async () => {
    const person = userEvent.setup();
    const keeper = testUser([{ ...shop, grant: ['viewLocations', 'editLocations', 'addLocations'] }]);
    renderResourceScreen(locationsResource, 'Locations', keeper, [
      { path: '/api/brands', body: listPage([]) },
      { path: '/api/locations', body: listPage([location]) },
    ]);
    const row = await screen.findByRole('row', { name: /Downtown/ });
    await person.click(within(row).getByRole('button', { name: /^Edit/ }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.queryByRole('tab')).toBeNull();
  });
});
