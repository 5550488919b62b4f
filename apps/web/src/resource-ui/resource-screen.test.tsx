import { type LocationRecord, locationsResource } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, listPage, type MockRoute, testUser } from '../test/render.tsx';
import { downtownLocation } from './location-test-data.ts';
import { renderResourceScreen } from './render-resource-screen.tsx';

/**
 * The declaration-driven screen, with a real declaration (locations: localized names, a brand
 * reference, working hours, phones): its columns, its form's input and the server's refusals.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
const brandId = '0b7c5c1e-4c6b-4a57-9a0e-6f1d1b9c2a01';

const location: LocationRecord = {
  ...downtownLocation,
  brandId,
  workingHours: [{ day: 'monday', opensAt: 9 * 3600, closesAt: 17 * 3600 + 30 * 60 }],
};

const brandsRoute: MockRoute = {
  path: '/api/brands',
  body: listPage([
    { id: brandId, code: 'BR', name: [{ locale: 'en', value: 'Nile Bakery' }], status: 'active' },
  ]),
};

function renderLocations(routes: MockRoute[]) {
  return renderResourceScreen(locationsResource, 'Locations', admin, [brandsRoute, ...routes]);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResourceScreen (locations)', () => {
  it('shows the declared columns: name, the brand by name, hours on a 12-hour clock, phones, status', async () => {
    renderLocations([{ path: '/api/locations', body: listPage([location]) }]);
    const row = await screen.findByRole('row', { name: /Downtown/ });
    expect(within(row).getByText('LOC-1')).toBeTruthy();
    expect(await within(row).findByText('Nile Bakery')).toBeTruthy();
    expect(row.textContent).toContain('Mon 09:00 AM – 05:30 PM');
    expect(row.textContent).toContain('Front desk: 0223456789');
    expect(within(row).getByText('Active')).toBeTruthy();
    for (const header of ['Brand', 'Working hours', 'Phones', 'Opening date', 'Status']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeTruthy();
    }
  });

  it('creates from the form: names per language, hours in seconds, labelled phones', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations([
      { path: '/api/locations', body: listPage([]) },
      { method: 'POST', path: '/api/locations', status: 201, body: { data: location } },
    ]);
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    const form = within(dialog);
    await person.type(form.getByLabelText('Code', { exact: true }), 'LOC-2');
    await person.type(form.getByLabelText('Name (English)'), 'Harbour');
    await waitFor(() => expect(form.getByRole('option', { name: 'Nile Bakery' })).toBeTruthy());
    await person.selectOptions(form.getByLabelText('Brand', { exact: true }), 'Nile Bakery');
    await person.type(form.getByLabelText('Label Phone 1'), 'Reception');
    await person.type(form.getByLabelText('Number Phone 1'), '0501234567');
    await person.type(form.getByLabelText('Friday opens'), '14:00');
    await person.type(form.getByLabelText('Friday closes'), '23:00');
    await person.click(form.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(callsTo(calls, '/api/locations', 'POST')).toHaveLength(1));
    const [post] = callsTo(calls, '/api/locations', 'POST');
    expect(post?.query.get('workspaceId')).toBe(shop.id);
    expect(post?.body).toMatchObject({
      code: 'LOC-2',
      name: [{ locale: 'en', value: 'Harbour' }],
      brandId,
      openingDate: null,
      workingHours: [{ day: 'friday', opensAt: 14 * 3600, closesAt: 23 * 3600 }],
      phones: [{ label: 'Reception', number: '0501234567' }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('saves with the code left empty: the field says a code is assigned, the list shows the one given', async () => {
    const person = userEvent.setup();
    const assigned = { ...location, id: '5a0c4b1e-2222-4a57-9a0e-6f1d1b9c2a03', code: 'LOC-0001' };
    let saved = false;
    const { calls } = renderLocations([
      { path: '/api/locations', body: () => listPage(saved ? [assigned] : []) },
      {
        method: 'POST',
        path: '/api/locations',
        status: 201,
        body: () => {
          saved = true;
          return { data: assigned };
        },
      },
    ]);
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    const form = within(await screen.findByRole('dialog'));
    const code = form.getByLabelText('Code', { exact: true });
    // Not required; the hint under it says what an empty code means, and describes the box.
    expect(code.getAttribute('aria-required')).toBeNull();
    const hint = document.getElementById(code.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Left empty, a code is assigned when you save');
    await person.type(form.getByLabelText('Name (English)'), 'Harbour');
    await waitFor(() => expect(form.getByRole('option', { name: 'Nile Bakery' })).toBeTruthy());
    await person.selectOptions(form.getByLabelText('Brand', { exact: true }), 'Nile Bakery');
    await person.type(form.getByLabelText('Label Phone 1'), 'Reception');
    await person.type(form.getByLabelText('Number Phone 1'), '0501234567');
    await person.click(form.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(callsTo(calls, '/api/locations', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/locations', 'POST')[0]?.body).toMatchObject({ code: '', brandId });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await screen.findByRole('row', { name: /Downtown/ });
    expect(within(row).getByText('LOC-0001')).toBeTruthy();
  });

  it('sends nothing while the form is invalid, and shows each message under its field', async () => {
    const person = userEvent.setup();
    const { calls } = renderLocations([{ path: '/api/locations', body: listPage([]) }]);
    await person.click((await screen.findAllByRole('button', { name: 'New location' }))[0]!);
    const form = within(await screen.findByRole('dialog'));
    // 18:00 with no closing time (18:00 → 09:00 would be a night shift, which is fine).
    await person.type(form.getByLabelText('Monday opens'), '18:00');
    await person.click(form.getByRole('button', { name: 'Create' }));
    expect(await form.findByText('Label is required')).toBeTruthy();
    // A code left empty is no mistake: the server assigns one when the record is saved.
    expect(form.queryByText('Code is required')).toBeNull();
    expect(form.getByLabelText('Monday closes').getAttribute('aria-invalid')).toBe('true');
    expect(form.getByText('Enter a closing time, or mark the day closed')).toBeTruthy();
    expect(callsTo(calls, '/api/locations', 'POST')).toHaveLength(0);
  });

  it("puts the server's repeated-code refusal under Code and keeps the dialog open", async () => {
    const person = userEvent.setup();
    renderLocations([
      { path: '/api/locations', body: listPage([location]) },
      {
        method: 'PATCH',
        path: `/api/locations/${location.id}`,
        status: 409,
        body: {
          error: {
            statusCode: 409,
            code: 'DB',
            name: 'DBError',
            message: 'This code must be unique',
            target: 'code',
          },
        },
      },
    ]);
    const row = await screen.findByRole('row', { name: /Downtown/ });
    await person.click(within(row).getByRole('button', { name: /^Edit/ }));
    const form = within(await screen.findByRole('dialog'));
    expect((form.getByLabelText('Name (Arabic)') as HTMLInputElement).value).toBe('وسط البلد');
    expect((form.getByLabelText('Monday closes') as HTMLInputElement).value).toBe('17:30');
    await person.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('This code must be unique')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
