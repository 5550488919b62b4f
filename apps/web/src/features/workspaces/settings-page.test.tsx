import type { CurrentUser, WorkspaceSettings } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { validationRefusal } from '../../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { SettingsPage } from './settings-page.tsx';

const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([
  { ...shop, grant: 'admin' },
  { id: 'w-cafe', name: 'Cafe', grant: 'admin' },
]);
// A role with many tags is still not an admin: it reads the settings.
const manager = testUser([{ ...shop, grant: ['viewBrands', 'addBrands', 'editUsers'] }]);
const stored: WorkspaceSettings = {
  id: shop.id,
  name: 'Shop',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  auditRetentionDays: 365,
  requireSecondFactor: false,
};

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

function renderSettings(user: CurrentUser, routes: MockRoute[] = []) {
  const mock = mockFetch([...routes, { path: '/api/workspaces/settings', body: { data: stored } }]);
  vi.stubGlobal('fetch', mock.fetchMock);
  const rendered = renderSignedIn(<SettingsPage />, { user, path: '/settings' });
  rendered.queryClient.setQueryData(queryKeys.currentUser, user);
  return { ...mock, ...rendered };
}

const nameBox = () => screen.findByRole('textbox', { name: 'Workspace name' });
const zoneButton = (name: RegExp = /^Time zone/) => screen.getByRole('button', { name });
/** Disabled by its own attribute or by a disabled fieldset around it. */
const isDisabled = (element: HTMLElement) => element.matches(':disabled');

describe('/settings for an admin: the declared form, editable', () => {
  it('shows the stored settings, then saves a new name and time zone picked by typing', async () => {
    const saved = { ...stored, name: 'Sara Foods', timeZone: 'Asia/Riyadh' };
    const { calls, queryClient } = renderSettings(admin, [
      { method: 'PATCH', path: '/api/workspaces/settings', body: { data: saved } },
    ]);
    // Loading first: the fields' places, said once.
    screen.getByText('Loading…');
    const name = await nameBox();
    expect((name as HTMLInputElement).value).toBe('Shop');
    // The searchable select is a chunk of its own, there once the form is.
    await screen.findByRole('button', { name: /^Base currency EGP · Egyptian Pound/ });
    // Named by its label and its choice, as a select is read.
    zoneButton(/^Time zone \(GMT\+0[23]:00\) Cairo/);
    expect(screen.queryByText("Only the workspace's admins can change these settings.")).toBeNull();

    await userEvent.clear(name);
    await userEvent.type(name, 'Sara Foods');
    await userEvent.click(zoneButton());
    const search = await screen.findByRole('combobox', { name: 'Search Time zone' });
    await waitFor(() => expect(document.activeElement).toBe(search));
    await userEvent.type(search, 'riyadh');
    const list = screen.getByRole('listbox', { name: 'Time zone' });
    expect(within(list).getAllByRole('option')).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(document.activeElement).toBe(zoneButton(/^Time zone .*Riyadh/));

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1));
    const [call] = callsTo(calls, '/api/workspaces/settings', 'PATCH');
    expect(call!.query.get('workspaceId')).toBe(shop.id);
    expect(call!.body).toEqual({
      name: 'Sara Foods',
      logo: null,
      baseCurrency: 'EGP',
      timeZone: 'Asia/Riyadh',
      auditRetentionDays: 365,
    });
    await screen.findByText('Workspace settings saved');
    // The shell's current user carries the new name and zone at once.
    expect(queryClient.getQueryData<CurrentUser>(queryKeys.currentUser)?.adminWorkspaces[0]).toMatchObject({
      name: 'Sara Foods',
      timeZone: 'Asia/Riyadh',
    });
    // Saved, the form starts afresh from the answer: leaving asks nothing.
    expect(((await nameBox()) as HTMLInputElement).value).toBe('Sara Foods');
    await userEvent.click(screen.getByRole('button', { name: 'switch to Cafe' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("says the server's refusal under its field, in the reader's words, and keeps the values", async () => {
    const { calls } = renderSettings(admin, [
      {
        method: 'PATCH',
        path: '/api/workspaces/settings',
        ...validationRefusal([{ path: 'baseCurrency', message: 'BASE_CURRENCY_HAS_NO_RATE' }], {
          message: 'Invalid input',
          key: 'baseCurrency',
        }),
      },
    ]);
    await userEvent.type(await nameBox(), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Add an exchange rate for this currency first/);
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1);
    expect(((await nameBox()) as HTMLInputElement).value).toBe('Shop 2');
  });

  /** Picks a base currency in the searchable list by typing its code. */
  async function chooseCurrency(code: string) {
    await userEvent.click(await screen.findByRole('button', { name: /^Base currency/ }));
    const search = await screen.findByRole('combobox', { name: 'Search Base currency' });
    await userEvent.type(search, code);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  }

  it('a new base currency with prices: confirms how many prices change and at what rate, then saves', async () => {
    const saved = { ...stored, baseCurrency: 'USD' };
    const { calls } = renderSettings(admin, [
      {
        path: '/api/workspaces/settings/base-currency-change',
        body: { data: { amounts: 24, rate: 48.5 } },
      },
      { method: 'PATCH', path: '/api/workspaces/settings', body: { data: saved } },
    ]);
    await nameBox();
    await chooseCurrency('USD');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Convert the prices to USD?' });
    expect(dialog.textContent).toContain('Prices and costs to convert: 24.');
    expect(dialog.textContent).toContain('1 USD = 48.5 EGP');
    expect(within(dialog).getByRole('button', { name: 'Keep EGP' })).toBeTruthy();
    const [preview] = callsTo(calls, '/api/workspaces/settings/base-currency-change');
    expect(preview?.query.get('currency')).toBe('USD');
    expect(preview?.query.get('workspaceId')).toBe(shop.id);
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Change and convert' }));
    await waitFor(() => expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')[0]?.body).toMatchObject({
      baseCurrency: 'USD',
    });
  });

  it('a new base currency without a rate while there are prices: the refusal under the field, nothing sent', async () => {
    const { calls } = renderSettings(admin, [
      {
        path: '/api/workspaces/settings/base-currency-change',
        body: { data: { amounts: 24, rate: null, refusal: 'PRICES_NEED_A_RATE' } },
      },
    ]);
    await nameBox();
    await chooseCurrency('USD');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Add an exchange rate for this currency first: the prices are converted at it'),
    ).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(0);
  });

  it('a new base currency and no prices: saved without asking', async () => {
    const { calls } = renderSettings(admin, [
      { path: '/api/workspaces/settings/base-currency-change', body: { data: { amounts: 0, rate: null } } },
      {
        method: 'PATCH',
        path: '/api/workspaces/settings',
        body: { data: { ...stored, baseCurrency: 'USD' } },
      },
    ]);
    await nameBox();
    await chooseCurrency('USD');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('refuses an empty name in the form, before any call', async () => {
    const { calls } = renderSettings(admin);
    await userEvent.clear(await nameBox());
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Workspace name is required');
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(0);
  });

  it('keeps the activity a whole number of days from 1 to 3,650: refused in the form, then saved', async () => {
    const saved = { ...stored, auditRetentionDays: 90 };
    const { calls } = renderSettings(admin, [
      { method: 'PATCH', path: '/api/workspaces/settings', body: { data: saved } },
    ]);
    const days = await screen.findByRole('textbox', { name: 'Keep the activity for (days)' });
    expect((days as HTMLInputElement).value).toBe('365');
    for (const typed of ['0', '3651', '1.5']) {
      await userEvent.clear(days);
      await userEvent.type(days, typed);
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Enter a whole number of days from 1 to 3,650');
    }
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(0);
    await userEvent.clear(days);
    await userEvent.type(days, '90');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')[0]!.body).toMatchObject({
      auditRetentionDays: 90,
    });
    await screen.findByText('Workspace settings saved');
  });

  it('asks "Discard your changes?" before leaving with unsaved changes', async () => {
    renderSettings(admin);
    await userEvent.type(await nameBox(), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'switch to Cafe' }));
    await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
  });

  it('the time zone list is searched by city in Arabic too, its labels in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderSettings(admin);
    await screen.findByRole('textbox', { name: 'اسم مساحة العمل' });
    const button = screen.getByRole('button', { name: /^المنطقة الزمنية توقيت مصر · Cairo · غرينتش/ });
    await userEvent.click(button);
    await userEvent.type(await screen.findByRole('combobox', { name: 'البحث في المنطقة الزمنية' }), 'dubai');
    const list = screen.getByRole('listbox', { name: 'المنطقة الزمنية' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([expect.stringMatching(/^توقيت الإمارات العربية المتحدة · Dubai · غرينتش\+٠٤:٠٠$/)]);
  });
});

describe('/settings for a member who is not an admin: the same settings, read only', () => {
  it('shows every value, says who may change them, and offers no way to', async () => {
    const { calls } = renderSettings(manager);
    const name = await nameBox();
    expect((name as HTMLInputElement).value).toBe('Shop');
    expect(isDisabled(name)).toBe(true);
    expect(
      isDisabled(await screen.findByRole('button', { name: /^Base currency EGP · Egyptian Pound/ })),
    ).toBe(true);
    expect(isDisabled(zoneButton(/^Time zone .*Cairo/))).toBe(true);
    const days = screen.getByRole('textbox', { name: 'Keep the activity for (days)' });
    expect((days as HTMLInputElement).value).toBe('365');
    expect(isDisabled(days)).toBe(true);
    screen.getByText("Only the workspace's admins can change these settings.");
    screen.getByText('No image');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // No required marks: nothing is asked of a reader.
    expect(screen.queryByText('*')).toBeNull();
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')).toHaveLength(0);
  });
});

describe('/settings when the settings cannot be loaded', () => {
  it('says so, and a retry loads them', async () => {
    let failing = true;
    const broken = mockFetch([
      {
        path: '/api/workspaces/settings',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'Boom' } },
      },
    ]);
    const working = mockFetch([{ path: '/api/workspaces/settings', body: { data: stored } }]);
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      (failing ? broken : working).fetchMock(input, init),
    );
    renderSignedIn(<SettingsPage />, { user: admin, path: '/settings' });
    await screen.findByText("The workspace's settings could not be loaded.");
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(((await nameBox()) as HTMLInputElement).value).toBe('Shop');
  });
});

describe('/settings: requiring a second factor', () => {
  it('turns the requirement on for an admin, and updates the workspace the shell reads', async () => {
    const { calls, queryClient } = renderSettings(admin, [
      {
        method: 'PATCH',
        path: '/api/workspaces/settings',
        body: { data: { ...stored, requireSecondFactor: true } },
      },
    ]);
    const toggle = await screen.findByRole('switch', { name: 'Require a second factor' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(callsTo(calls, '/api/workspaces/settings', 'PATCH')[0]?.body).toEqual({
      requireSecondFactor: true,
    });
    const user = queryClient.getQueryData<CurrentUser>(queryKeys.currentUser);
    expect(user?.adminWorkspaces.find((workspace) => workspace.id === shop.id)?.requireSecondFactor).toBe(
      true,
    );
  });

  it("says the server's refusal under the switch when the admin's session used no factor", async () => {
    renderSettings(admin, [
      {
        method: 'PATCH',
        path: '/api/workspaces/settings',
        status: 403,
        body: {
          error: {
            statusCode: 403,
            code: 'SECOND_FACTOR_REQUIRED',
            name: 'SecondFactorRequiredError',
            message: 'This workspace requires a second factor: use one to continue',
          },
        },
      },
    ]);
    const toggle = await screen.findByRole('switch', { name: 'Require a second factor' });
    await userEvent.setup().click(toggle);
    expect(
      await screen.findByText(/To require a second factor, sign in with one yourself first/),
    ).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('shows the switch to other members without letting them change it', async () => {
    renderSettings(manager);
    const toggle = await screen.findByRole('switch', { name: 'Require a second factor' });
    expect(isDisabled(toggle)).toBe(true);
  });
});
