import { type LocationRecord, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/** A location's working hours through the API: night shifts, closed days, an empty closing time. */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;
let brandId: string;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Night Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  brandId = dataOf<{ id: string }>(
    await call('POST', 'brands', { code: unique('b'), name: [{ locale: 'en', value: 'Koshary' }] }),
  ).id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: admin.cookie });
const at = (hours: number) => hours * 3600;
const location = (workingHours: unknown) => ({
  code: unique('l'),
  name: [{ locale: 'en', value: 'Zamalek' }],
  brandId,
  workingHours,
  phones: [{ label: 'Front', number: '+201001234567' }],
});

describe('working hours of a location', () => {
  it('keeps a night shift (20:00 → 02:00) and a closed day, and reads them back', async () => {
    const week = [
      { day: 'thursday', opensAt: at(20), closesAt: at(2) },
      { day: 'friday', closed: true },
      { day: 'saturday', opensAt: 0, closesAt: 86_400 },
    ];
    const created = dataOf<LocationRecord & { id: string }>(await call('POST', 'locations', location(week)));
    expect(created.workingHours).toEqual(week);
    expect(dataOf<LocationRecord>(await call('GET', `locations/${created.id}`)).workingHours).toEqual(week);
    const listed = dataOf<(LocationRecord & { id: string })[]>(await call('GET', 'locations'));
    expect(listed.find((record) => record.id === created.id)?.workingHours).toEqual(week);
    const patched = [{ day: 'friday', opensAt: at(22), closesAt: at(4) }];
    expect(
      dataOf<LocationRecord>(await call('PATCH', `locations/${created.id}`, { workingHours: patched }))
        .workingHours,
    ).toEqual(patched);
  });

  it('reads hours saved before closed days existed (open days only) as they were', async () => {
    const old = [{ day: 'monday', opensAt: at(9), closesAt: at(17) }];
    const created = dataOf<LocationRecord & { id: string }>(await call('POST', 'locations', location(old)));
    expect(dataOf<LocationRecord>(await call('GET', `locations/${created.id}`)).workingHours).toEqual(old);
  });

  it('refuses an empty closing time with its own code, and changes nothing', async () => {
    for (const closesAt of [undefined, null, '']) {
      const refused = await call(
        'POST',
        'locations',
        location([{ day: 'monday', opensAt: at(9), closesAt }]),
      );
      expectValidation(refused, 'workingHours.0.closesAt', validationCodes.CLOSING_TIME_REQUIRED);
    }
    expectValidation(
      await call('POST', 'locations', location([{ day: 'monday', closesAt: at(17) }])),
      'workingHours.0.opensAt',
      validationCodes.OPENING_TIME_REQUIRED,
    );
    const total = (await call('GET', 'locations')).json as { meta: { total: number } };
    expect(total.meta.total).toBe(2);
  });

  it('refuses equal times, a closed day with times, and a time past the day as a bad time', async () => {
    for (const [day, key] of [
      [{ day: 'monday', opensAt: at(9), closesAt: at(9) }, 'workingHours.0.closesAt'],
      [{ day: 'monday', closed: true, opensAt: at(9), closesAt: at(17) }, 'workingHours.0.closed'],
      [{ day: 'monday', opensAt: at(9), closesAt: at(25) }, 'workingHours.0.closesAt'],
    ] as const) {
      expectValidation(
        await call('POST', 'locations', location([day])),
        key,
        validationCodes.WORKING_HOURS_INVALID,
      );
    }
  });
});
