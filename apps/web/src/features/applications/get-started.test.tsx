import type { GetStarted, GetStartedStep } from '@dukkan/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ApplicationsPage } from './applications-page.tsx';

/**
 * The dashboard's Get started list: the member's steps from the server, each a link to where it
 * is done or ticked, the location waiting for a brand, hidden for the workspace and shown again.
 */
const shop = { id: 'w-shop', name: 'Corner Shop' };
const path = '/api/workspaces/get-started';
const dismissalPath = '/api/workspaces/get-started/dismissal';

const step = (key: GetStartedStep['key'], done = false, waitsFor: GetStartedStep['waitsFor'] = null) => ({
  key,
  done,
  waitsFor,
});
const newWorkspace: GetStarted = {
  dismissedAt: null,
  steps: [
    step('brand'),
    step('location', false, 'brand'),
    step('product'),
    step('invite'),
    step('application'),
  ],
};
const halfway: GetStarted = {
  dismissedAt: null,
  steps: [step('brand', true), step('location'), step('product', true), step('invite'), step('application')],
};
const dashboard = { data: [], meta: { activeLocations: 0 } };

function renderDashboard(routes: MockRoute[], grant: 'admin' | string[] = 'admin') {
  const mock = mockFetch([{ path: '/api/applications', body: dashboard }, ...routes]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ApplicationsPage />, { user: testUser([{ ...shop, grant }]), path: '/' });
  return mock;
}
const findList = () => screen.findByRole('region', { name: 'Get started' });
const items = (list: HTMLElement) => within(list).getAllByRole('listitem');

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('Get started on the dashboard', () => {
  it('a new workspace: each step a link to its page, the location explaining it needs a brand first', async () => {
    const { calls } = renderDashboard([{ path, body: { data: newWorkspace } }]);
    const list = await findList();
    expect(callsTo(calls, path)[0]?.query.get('workspaceId')).toBe(shop.id);
    expect(
      within(list).getByText('A few first steps to set up Corner Shop. Each is ticked once it is done.'),
    ).toBeTruthy();
    expect(within(list).getByText('0 of 5 done')).toBeTruthy();
    const links = Object.fromEntries(
      within(list)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(links).toEqual({
      'Add a brand': '/brands',
      'Add a product': '/products/add',
      'Invite a member': '/users',
      'Try an application': '#applications',
    });
    expect(items(list)[1]?.textContent).toContain('Add a location');
    expect(items(list)[1]?.textContent).toContain('A location belongs to a brand: add a brand first.');
  });

  it('ticks what is done (no link, "Done") and counts it', async () => {
    renderDashboard([{ path, body: { data: halfway } }]);
    const list = await findList();
    expect(within(list).getByText('2 of 5 done')).toBeTruthy();
    const [brand, location, product] = items(list);
    expect(within(brand!).queryByRole('link')).toBeNull();
    expect(within(brand!).getByText('Done')).toBeTruthy();
    expect(within(location!).getByRole('link', { name: 'Add a location' }).getAttribute('href')).toBe(
      '/locations',
    );
    expect(within(location!).queryByText('Done')).toBeNull();
    expect(within(product!).getByText('Done')).toBeTruthy();
  });

  it('is absent once every step is done, or once hidden for the workspace', async () => {
    const allDone = { dismissedAt: null, steps: halfway.steps.map((each) => ({ ...each, done: true })) };
    const { calls } = renderDashboard([{ path, body: { data: allDone } }]);
    await waitFor(() => expect(callsTo(calls, path)).toHaveLength(1));
    await screen.findByText('No applications yet');
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    cleanup();
    const hidden = renderDashboard([
      { path, body: { data: { ...newWorkspace, dismissedAt: '2027-01-01T00:00:00.000Z' } } },
    ]);
    await waitFor(() => expect(callsTo(hidden.calls, path)).toHaveLength(1));
    await screen.findByText('No applications yet');
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('a member who may take no step is not asked about it, and sees no list', async () => {
    const { calls } = renderDashboard(
      [{ path, body: { data: newWorkspace } }],
      ['viewApplications', 'viewBrands'],
    );
    await screen.findByText('No applications yet');
    expect(callsTo(calls, path)).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('a location waiting for a brand its member may not add: says to ask for one', async () => {
    renderDashboard(
      [{ path, body: { data: { dismissedAt: null, steps: [step('location', false, 'brand')] } } }],
      ['viewApplications', 'addLocations'],
    );
    const list = await findList();
    expect(within(list).queryByRole('link')).toBeNull();
    expect(
      within(list).getByText(
        'A location belongs to a brand: ask someone who may add brands to add one first.',
      ),
    ).toBeTruthy();
  });

  it('hides for everyone without asking, then offers to show it again; the focus follows', async () => {
    const person = userEvent.setup();
    const hiddenAt = '2027-01-10T12:00:00.000Z';
    const { calls } = renderDashboard([
      { path, body: { data: newWorkspace } },
      { method: 'PUT', path: dismissalPath, body: { data: { ...newWorkspace, dismissedAt: hiddenAt } } },
      { method: 'DELETE', path: dismissalPath, body: { data: newWorkspace } },
    ]);
    const list = await findList();
    await person.click(within(list).getByRole('button', { name: 'Hide for everyone' }));
    expect(callsTo(calls, dismissalPath, 'PUT')[0]?.query.get('workspaceId')).toBe(shop.id);
    const said = await screen.findByText('Get started is hidden for everyone in Corner Shop.');
    expect(said.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    const undo = screen.getByRole('button', { name: 'Show it again' });
    await waitFor(() => expect(document.activeElement).toBe(undo));

    await person.click(undo);
    expect(callsTo(calls, dismissalPath, 'DELETE')).toHaveLength(1);
    await findList();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Get started' })),
    );
  });

  it('the last step leads to the applications below: the focus goes there', async () => {
    const person = userEvent.setup();
    renderDashboard([{ path, body: { data: newWorkspace } }]);
    const list = await findList();
    await person.click(within(list).getByRole('link', { name: 'Try an application' }));
    expect(document.activeElement?.id).toBe('applications');
  });

  it('speaks Arabic in the Arabic interface', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderDashboard([{ path, body: { data: halfway } }]);
    const list = await screen.findByRole('region', { name: 'ابدأ من هنا' });
    expect(within(list).getByText('تمّ ٢ من ٥')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'أضف فرعًا' })).toBeTruthy();
    expect(within(list).getAllByText('تمّت')).toHaveLength(2);
    expect(within(list).getByRole('button', { name: 'إخفاء عن الجميع' })).toBeTruthy();
  });
});
