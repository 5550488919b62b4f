import { type CurrentUser, validationCodes, type WorkspaceSettings } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, workspaces } from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation, multipart } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, tagsExcept } from './helpers/workspaces.ts';

/**
 * `GET /api/workspaces/settings?workspaceId=…` (every member of the workspace) and `PATCH` (its
 * admins only).
 */
let t: TestApp;
let shop: { id: string; name: string };
let other: { id: string; name: string };
let admin: TestMember;
let manager: TestMember;
let cashier: TestMember;
let otherAdmin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Shop');
  other = await createWorkspace(t.db, 'Other');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  // Every tag of the catalogue, but not an admin: the settings stay out of reach.
  manager = await addMember(t.db, shop.id, { tags: tagsExcept([]) });
  // A role without any tag: a member all the same, who reads the settings.
  cashier = await addMember(t.db, shop.id, { tags: [] });
  otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const settingsUrl = (workspaceId: string | undefined) =>
  workspaceId === undefined
    ? '/api/workspaces/settings'
    : `/api/workspaces/settings?workspaceId=${workspaceId}`;
const read = (cookie: string | undefined, workspaceId: string | undefined = shop.id) =>
  api(t.app, { url: settingsUrl(workspaceId), cookie });
const update = (body: unknown, cookie: string | undefined, workspaceId: string | undefined = shop.id) =>
  api(t.app, { method: 'PATCH', url: settingsUrl(workspaceId), body, cookie });

describe('workspace settings', () => {
  it('every member reads them, admin or not: a new workspace is in EGP and Cairo', async () => {
    for (const member of [admin, manager, cashier]) {
      const response = await read(member.cookie);
      expect(response.status).toBe(200);
      expect(dataOf<WorkspaceSettings>(response)).toEqual({
        id: shop.id,
        name: 'Shop',
        logo: null,
        baseCurrency: 'EGP',
        timeZone: 'Africa/Cairo',
        auditRetentionDays: 365,
        requireSecondFactor: false,
      });
    }
  });

  it('an admin sets the time zone; an alias or another case is stored under its canonical name', async () => {
    const workspace = await createWorkspace(t.db, 'Zones');
    const owner = await addMember(t.db, workspace.id, { isAdmin: true });
    const member = await addMember(t.db, workspace.id, { tags: [] });
    const set = async (timeZone: string) => {
      const response = await update({ timeZone }, owner.cookie, workspace.id);
      expect(response.status, timeZone).toBe(200);
      return dataOf<WorkspaceSettings>(response).timeZone;
    };
    expect(await set('Asia/Riyadh')).toBe('Asia/Riyadh');
    expect(dataOf<WorkspaceSettings>(await read(member.cookie, workspace.id)).timeZone).toBe('Asia/Riyadh');
    expect(await set('america/new_york')).toBe('America/New_York');
    expect(await set('US/Eastern')).toBe('America/New_York');
    expect(await set('Etc/UTC')).toBe('UTC');
    // The current user carries it, for the web's dates.
    const user = dataOf<CurrentUser>(await api(t.app, { url: '/api/auth/user', cookie: member.cookie }));
    expect(user.workspaces.find((entry) => entry.workspaceId === workspace.id)?.workspace.timeZone).toBe(
      'UTC',
    );
  });

  it('an admin renames the workspace, sets its base currency and logo; the current user shows them at once', async () => {
    const upload = await api(t.app, {
      method: 'POST',
      url: `/api/files?workspaceId=${shop.id}`,
      cookie: admin.cookie,
      ...multipart([{ field: 'file', filename: 'logo.png', type: 'image/png', content: onePixelPng }]),
    });
    expect(upload.status).toBe(201);
    const logo = dataOf<{ url: string }>(upload).url;

    const response = await update(
      { name: '  Sara Foods  ', baseCurrency: 'USD', logo, timeZone: 'Asia/Dubai' },
      admin.cookie,
    );
    expect(response.status).toBe(200);
    expect(dataOf<WorkspaceSettings>(response)).toEqual({
      id: shop.id,
      name: 'Sara Foods',
      logo,
      baseCurrency: 'USD',
      timeZone: 'Asia/Dubai',
      auditRetentionDays: 365,
      requireSecondFactor: false,
    });
    // Fields left out stay; the logo can be taken away.
    const second = await update({ logo: null }, admin.cookie);
    expect(dataOf<WorkspaceSettings>(second)).toMatchObject({
      name: 'Sara Foods',
      logo: null,
      baseCurrency: 'USD',
      timeZone: 'Asia/Dubai',
    });

    // The admin's and a member's current user carry the new name, currency and zone.
    for (const member of [admin, manager]) {
      const user = dataOf<CurrentUser>(await api(t.app, { url: '/api/auth/user', cookie: member.cookie }));
      const summaries = [...user.adminWorkspaces, ...user.workspaces.map((entry) => entry.workspace)];
      expect(summaries.find((workspace) => workspace.id === shop.id)).toEqual({
        id: shop.id,
        name: 'Sara Foods',
        logo: null,
        baseCurrency: 'USD',
        timeZone: 'Asia/Dubai',
        requireSecondFactor: false,
      });
    }
    // The other workspace is untouched.
    expect(dataOf<WorkspaceSettings>(await read(otherAdmin.cookie, other.id))).toMatchObject({
      name: 'Other',
      baseCurrency: 'EGP',
      timeZone: 'Africa/Cairo',
    });
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const before = dataOf<WorkspaceSettings>(await read(admin.cookie));
    for (const [body, key, message] of [
      [{ name: '   ' }, 'name', validationCodes.WORKSPACE_NAME_IS_REQUIRED],
      [{ name: 'x'.repeat(256) }, 'name', validationCodes.WORKSPACE_NAME_TOO_LONG],
      [{ baseCurrency: 'XYZ' }, 'baseCurrency', validationCodes.CURRENCY_IS_INVALID],
      // Withdrawn: Croatia's kuna (2023).
      [{ baseCurrency: 'HRK' }, 'baseCurrency', validationCodes.CURRENCY_IS_INVALID],
      [{ logo: 'https://elsewhere.example/logo.png' }, 'logo', validationCodes.URL_IS_INVALID],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone', validationCodes.TIME_ZONE_IS_INVALID],
      // An offset is no named zone, though Intl reads it.
      [{ timeZone: '+02:00' }, 'timeZone', validationCodes.TIME_ZONE_IS_INVALID],
      [{ timeZone: '' }, 'timeZone', validationCodes.TIME_ZONE_IS_INVALID],
      [{ timeZone: 2 }, 'timeZone', validationCodes.TIME_ZONE_IS_INVALID],
      // One bad field refuses the whole change: the good ones beside it are not written either.
      [{ name: 'Half Saved', timeZone: 'Nowhere/Atall' }, 'timeZone', validationCodes.TIME_ZONE_IS_INVALID],
      // A file of another workspace.
      [
        { logo: `/files/${other.id}/0b0c1c9e-2f7a-4c35-9f0a-2c1e3d4b5a69.png` },
        'logo',
        validationCodes.URL_IS_INVALID,
      ],
    ] as const) {
      const response = await update(body, admin.cookie);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expectValidation(response, key, message);
    }
    expect(errorOf(await update({ owner: 'me' }, admin.cookie)).code).toBe('VALIDATION');
    expect(dataOf<WorkspaceSettings>(await read(admin.cookie))).toEqual(before);
  });

  it('401 signed out, 403 for a change by a member who is not an admin, 403 for another workspace', async () => {
    for (const call of [() => read(undefined), () => update({ name: 'Taken' }, undefined)]) {
      const response = await call();
      expect(response.status).toBe(401);
      expect(errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
    }
    // A role with every tag is still not an admin: it reads, but changes nothing.
    for (const member of [manager, cashier]) {
      for (const body of [{ name: 'Taken' }, { timeZone: 'Asia/Tokyo' }, { baseCurrency: 'JPY' }]) {
        const response = await update(body, member.cookie);
        expect(response.status).toBe(403);
        expect(errorOf(response).code).toBe('FORBIDDEN');
      }
    }
    // An admin of another workspace, naming this one.
    for (const call of [
      () => read(otherAdmin.cookie, shop.id),
      () => update({ name: 'Taken' }, otherAdmin.cookie, shop.id),
    ]) {
      expect((await call()).status).toBe(403);
    }
    // A disabled admin loses the settings with their next request, reading them too.
    const disabled = await addMember(t.db, shop.id, { isAdmin: true, status: 'inactive' });
    expect((await update({ name: 'Taken' }, disabled.cookie)).status).toBe(403);
    expect((await read(disabled.cookie)).status).toBe(403);
    // No workspace named: a validation error.
    expectValidation(
      await api(t.app, { url: settingsUrl(undefined), cookie: admin.cookie }),
      'workspaceId',
      validationCodes.WORKSPACE_ID_IS_REQUIRED,
    );
    const after = dataOf<WorkspaceSettings>(await read(admin.cookie));
    expect(after.name).not.toBe('Taken');
    expect(after.timeZone).not.toBe('Asia/Tokyo');
    expect(after.baseCurrency).not.toBe('JPY');
  });
});

describe("the audit log's retention", () => {
  /** The stored days, read past the API. */
  const storedDays = async (workspaceId: string) =>
    (await t.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.auditRetentionDays;

  it('an admin sets the days the purge keeps; the change is on the audit log like every setting', async () => {
    const workspace = await createWorkspace(t.db, 'Retained');
    const owner = await addMember(t.db, workspace.id, { isAdmin: true });
    const response = await update({ auditRetentionDays: 30 }, owner.cookie, workspace.id);
    expect(response.status).toBe(200);
    expect(dataOf<WorkspaceSettings>(response).auditRetentionDays).toBe(30);
    expect(dataOf<WorkspaceSettings>(await read(owner.cookie, workspace.id)).auditRetentionDays).toBe(30);
    expect(await storedDays(workspace.id)).toBe(30);
    // Both ends are allowed, and typed text is read as a number as in every number field.
    for (const [days, stored] of [
      [1, 1],
      [3650, 3650],
      ['90', 90],
    ] as const) {
      const again = await update({ auditRetentionDays: days }, owner.cookie, workspace.id);
      expect(again.status, String(days)).toBe(200);
      expect(await storedDays(workspace.id)).toBe(stored);
    }
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspace.id), eq(auditLog.resource, 'settings')));
    expect(rows.map((row) => row.changes.auditRetentionDays)).toEqual(
      expect.arrayContaining([
        [365, 30],
        [30, 1],
        [1, 3650],
        [3650, 90],
      ]),
    );
    const first = rows.find((row) => row.changes.auditRetentionDays?.[1] === 30)!;
    expect(first).toMatchObject({
      action: 'update',
      actorKind: 'member',
      actorUserId: owner.user.id,
      recordId: workspace.id,
      requestId: response.headers['x-request-id'],
    });
    // Saving the same days again changes nothing, and writes no row.
    const same = await update({ auditRetentionDays: 90 }, owner.cookie, workspace.id);
    expect(same.status).toBe(200);
    const after = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.requestId, same.headers['x-request-id'] as string));
    expect(after).toEqual([]);
  });

  it('refuses 0, 3,651, a fraction and text with the field named, and keeps the days', async () => {
    const before = await storedDays(shop.id);
    for (const days of [0, 3651, -1, 1.5, 'a month', null, '']) {
      const response = await update({ auditRetentionDays: days }, admin.cookie);
      expect(response.status, JSON.stringify(days)).toBe(400);
      expectValidation(response, 'auditRetentionDays', validationCodes.AUDIT_RETENTION_OUT_OF_RANGE);
    }
    expect(await storedDays(shop.id)).toBe(before);
  });

  it('401 signed out, 403 for a member who is not an admin, 403 for an admin of another workspace', async () => {
    const before = await storedDays(shop.id);
    const signedOut = await update({ auditRetentionDays: 7 }, undefined);
    expect(signedOut.status).toBe(401);
    expect(errorOf(signedOut)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
    // Every tag of the catalogue (viewAudit included) is still not an admin.
    for (const member of [manager, cashier]) {
      const response = await update({ auditRetentionDays: 7 }, member.cookie);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('FORBIDDEN');
    }
    // Another workspace's id, named by this one's admin, and this one's by the other's admin.
    const otherBefore = await storedDays(other.id);
    for (const [member, workspaceId] of [
      [admin, other.id],
      [otherAdmin, shop.id],
    ] as const) {
      const foreign = await update({ auditRetentionDays: 7 }, member.cookie, workspaceId);
      expect(foreign.status).toBe(403);
      expect(errorOf(foreign).code).toBe('FORBIDDEN');
    }
    expect(await storedDays(shop.id)).toBe(before);
    expect(await storedDays(other.id)).toBe(otherBefore);
    expect(before).not.toBe(7);
  });
});

describe('exchange rates and the base currency', () => {
  it('refuses a rate for the base currency itself, on create, bulk and update', async () => {
    const workspace = await createWorkspace(t.db, 'Rates');
    const owner = await addMember(t.db, workspace.id, { isAdmin: true });
    const ratesUrl = (path = '') => `/api/exchange-rates${path}?workspaceId=${workspace.id}`;
    const created = await api(t.app, {
      url: ratesUrl(),
      body: { currency: 'USD', rate: 50 },
      cookie: owner.cookie,
    });
    expect(created.status).toBe(201);
    expectValidation(
      await api(t.app, { url: ratesUrl(), body: { currency: 'EGP', rate: 1 }, cookie: owner.cookie }),
      'currency',
      validationCodes.CURRENCY_IS_BASE,
    );
    const bulk = await api(t.app, {
      url: ratesUrl('/bulk'),
      body: [
        { currency: 'EUR', rate: 55 },
        { currency: 'EGP', rate: 1 },
      ],
      cookie: owner.cookie,
    });
    expect(bulk.status).toBe(400);
    expect(errorOf(bulk).issues?.[0]?.message).toBe(validationCodes.CURRENCY_IS_BASE);
    const id = dataOf<{ id: string }>(created).id;
    expectValidation(
      await api(t.app, {
        method: 'PATCH',
        url: ratesUrl(`/${id}`),
        body: { currency: 'EGP' },
        cookie: owner.cookie,
      }),
      'currency',
      validationCodes.CURRENCY_IS_BASE,
    );
    // Once the base is USD, USD's rate is converted into EGP's, and USD is the one refused.
    expect((await update({ baseCurrency: 'USD' }, owner.cookie, workspace.id)).status).toBe(200);
    const list = dataOf<{ currency: string; rate: number }[]>(
      await api(t.app, { url: ratesUrl(), cookie: owner.cookie }),
    );
    expect(list.map(({ currency, rate }) => ({ currency, rate }))).toEqual([{ currency: 'EGP', rate: 0.02 }]);
    expectValidation(
      await api(t.app, { url: ratesUrl(), body: { currency: 'USD', rate: 1 }, cookie: owner.cookie }),
      'currency',
      validationCodes.CURRENCY_IS_BASE,
    );
  });

  it('a new base converts every rate through its own, and back; without a rate for it, nothing changes', async () => {
    const workspace = await createWorkspace(t.db, 'Rebase');
    const owner = await addMember(t.db, workspace.id, { isAdmin: true });
    const bystander = await createWorkspace(t.db, 'Bystander');
    const bystanderAdmin = await addMember(t.db, bystander.id, { isAdmin: true });
    const ratesOf = async (id: string, cookie: string) =>
      Object.fromEntries(
        dataOf<{ currency: string; rate: number }[]>(
          await api(t.app, { url: `/api/exchange-rates?workspaceId=${id}`, cookie }),
        ).map(({ currency, rate }) => [currency, rate]),
      );
    const post = (id: string, cookie: string, body: unknown) =>
      api(t.app, { url: `/api/exchange-rates/bulk?workspaceId=${id}`, body, cookie });
    expect(
      (
        await post(workspace.id, owner.cookie, [
          { currency: 'USD', rate: 50 },
          { currency: 'EUR', rate: 55 },
          { currency: 'SAR', rate: 12.5 },
        ])
      ).status,
    ).toBe(201);
    expect((await post(bystander.id, bystanderAdmin.cookie, [{ currency: 'USD', rate: 48 }])).status).toBe(
      201,
    );

    // No rate for GBP to convert through: refused under the field, the base and the rates as they were.
    expectValidation(
      await update({ baseCurrency: 'GBP', name: 'Renamed' }, owner.cookie, workspace.id),
      'baseCurrency',
      validationCodes.BASE_CURRENCY_HAS_NO_RATE,
    );
    expect(dataOf<WorkspaceSettings>(await read(owner.cookie, workspace.id))).toMatchObject({
      name: 'Rebase',
      baseCurrency: 'EGP',
    });
    expect(await ratesOf(workspace.id, owner.cookie)).toEqual({ USD: 50, EUR: 55, SAR: 12.5 });

    expect((await update({ baseCurrency: 'USD' }, owner.cookie, workspace.id)).status).toBe(200);
    expect(await ratesOf(workspace.id, owner.cookie)).toEqual({ EGP: 0.02, EUR: 1.1, SAR: 0.25 });
    // And back again: the rates as they were; another workspace's rates never move.
    expect((await update({ baseCurrency: 'EGP' }, owner.cookie, workspace.id)).status).toBe(200);
    expect(await ratesOf(workspace.id, owner.cookie)).toEqual({ USD: 50, EUR: 55, SAR: 12.5 });
    expect(await ratesOf(bystander.id, bystanderAdmin.cookie)).toEqual({ USD: 48 });
  });
});

/** The smallest valid PNG: one transparent pixel. */
const onePixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
