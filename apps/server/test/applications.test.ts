import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DashboardApplication, dashboardApplicationSchema } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootstrapDemoApplication } from '../src/bootstrap.ts';
import { memberMayUseApplication } from '../src/db/installed-applications.ts';
import { applications, appMeta, brands, locations, memberships } from '../src/db/schema/index.ts';
import { ApplicationError } from '../src/features/applications/application-input.ts';
import {
  applicationSecretMatches,
  createApplication,
  listApplications,
  rotateApplicationSecret,
  updateApplication,
} from '../src/features/applications/applications.ts';
import { demoClientRedirectUri } from '../src/features/applications/demo-application.ts';
import { api, dataOf, errorOf, tinyPng } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

let t: TestApp;
/** Logo files on "the operator's machine". */
let sources: string;
beforeAll(async () => {
  t = await createTestApp();
  sources = mkdtempSync(join(tmpdir(), 'dukkan-logos-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(sources, { recursive: true, force: true });
});

const files = () => t.app.fileStore;
const platformDir = () => join(t.config.uploads.dir, 'platform');
const platformFiles = () => {
  try {
    return readdirSync(platformDir()).sort();
  } catch {
    return [];
  }
};
const applicationCount = async () => (await t.db.select({ n: count() }).from(applications))[0]!.n;

function sourceFile(name: string, content: Buffer | string): string {
  const path = join(sources, name);
  writeFileSync(path, content);
  return path;
}

const plainSvg =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>';

/** A valid registration, with a new client id unless given. */
const validInput = (fields: Record<string, unknown> = {}) => ({
  clientId: unique('pos-'),
  name: { en: 'Point of sale', ar: 'نقطة البيع' },
  description: { en: 'Sell at the counter', ar: 'البيع عند الكاشير' },
  homeUrl: 'https://pos.example/',
  redirectUris: ['https://pos.example/callback', 'http://localhost:4000/cb'],
  clientType: 'public',
  currency: 'EGP',
  monthlyPricePerLocation: 25_000,
  discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
  trialDays: 14,
  ...fields,
});

/** The refusal of a call, which must be an ApplicationError. */
async function refusal(promise: Promise<unknown>): Promise<ApplicationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApplicationError);
  return error as ApplicationError;
}

/** GET of a stored file, its bytes and headers. */
async function fetchFile(path: string) {
  const response = await t.app.inject({ method: 'GET', url: path });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

describe('registering applications (the operator’s functions)', () => {
  it('a confidential client: its secret is returned once, 256 bits of base64url, stored only as SHA-256', async () => {
    const input = validInput({ clientType: 'confidential' });
    const { application, secret } = await createApplication(t.db, input, files());
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret!, 'base64url')).toHaveLength(32);
    expect(application).toMatchObject({
      clientId: input.clientId,
      name: { en: 'Point of sale', ar: 'نقطة البيع' },
      description: { en: 'Sell at the counter', ar: 'البيع عند الكاشير' },
      clientType: 'confidential',
      hasSecret: true,
      redirectUris: ['https://pos.example/callback', 'http://localhost:4000/cb'],
      monthlyPricePerLocation: 25_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
      trialDays: 14,
      logo: null,
    });
    expect(JSON.stringify(application)).not.toContain(secret);

    const [row] = await t.db.select().from(applications).where(eq(applications.clientId, input.clientId));
    expect(row!.secretHash).toBe(createHash('sha256').update(secret!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    // The list shows whether there is a secret, never the secret or its hash.
    const listed = (await listApplications(t.db)).find((entry) => entry.clientId === input.clientId)!;
    expect(listed.hasSecret).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(row!.secretHash!);
    expect(await applicationSecretMatches(t.db, input.clientId, secret!)).toBe(true);
    // One character changed (the last one carries only 4 of the 256 bits: change the first).
    const wrong = `${secret!.startsWith('x') ? 'y' : 'x'}${secret!.slice(1)}`;
    expect(await applicationSecretMatches(t.db, input.clientId, wrong)).toBe(false);
  });

  it('a public client has no secret, and two registrations give two different secrets', async () => {
    const { application, secret } = await createApplication(t.db, validInput(), files());
    expect(secret).toBeUndefined();
    expect(application.hasSecret).toBe(false);
    const [row] = await t.db.select().from(applications).where(eq(applications.id, application.id));
    expect(row!.secretHash).toBeNull();
    expect(await applicationSecretMatches(t.db, application.clientId, '')).toBe(false);

    const first = await createApplication(t.db, validInput({ clientType: 'confidential' }), files());
    const second = await createApplication(t.db, validInput({ clientType: 'confidential' }), files());
    expect(first.secret).not.toBe(second.secret);
  });

  it('description and trial default to empty and 0; the list is sorted by client id', async () => {
    const { description: _, trialDays: __, ...input } = validInput({ clientId: 'aaa-first' });
    const { application } = await createApplication(t.db, input, files());
    expect(application).toMatchObject({ description: { en: '', ar: '' }, trialDays: 0 });
    const listed = await listApplications(t.db);
    expect(listed[0]!.clientId).toBe('aaa-first');
    expect(listed.map((entry) => entry.clientId)).toEqual(listed.map((entry) => entry.clientId).sort());
  });

  it('a client id taken is refused (duplicateClientId), nothing written, no logo left behind', async () => {
    const input = validInput();
    await createApplication(t.db, input, files());
    const before = { count: await applicationCount(), files: platformFiles() };
    const error = await refusal(
      createApplication(
        t.db,
        validInput({ clientId: input.clientId, logo: sourceFile('dup.png', tinyPng) }),
        files(),
      ),
    );
    expect(error.reason).toBe('duplicateClientId');
    expect(error.message).toContain(input.clientId);
    expect({ count: await applicationCount(), files: platformFiles() }).toEqual(before);
  });

  it.each([
    ['an upper-case client id', { clientId: 'POS' }, 'clientId'],
    ['a two-letter client id', { clientId: 'ab' }, 'clientId'],
    ['a client id with a slash', { clientId: 'pos/1' }, 'clientId'],
    ['no Arabic name', { name: { en: 'POS' } }, 'name.ar'],
    ['a blank English name', { name: { en: '  ', ar: 'نقطة' } }, 'name.en'],
    ['a relative home URL', { homeUrl: '/home' }, 'homeUrl'],
    ['a javascript: home URL', { homeUrl: 'javascript:alert(1)' }, 'homeUrl'],
    ['no redirect URI', { redirectUris: [] }, 'redirectUris'],
    ['a redirect URI with a fragment', { redirectUris: ['https://pos.example/cb#x'] }, 'redirectUris.0'],
    ['a relative redirect URI', { redirectUris: ['https://pos.example/cb', '/cb'] }, 'redirectUris.1'],
    ['an ftp redirect URI', { redirectUris: ['ftp://pos.example/cb'] }, 'redirectUris.0'],
    ['a redirect URI twice', { redirectUris: ['https://a.example/', 'https://a.example/'] }, 'redirectUris'],
    ['another client type', { clientType: 'native' }, 'clientType'],
    ['a lower-case currency', { currency: 'egp' }, 'currency'],
    ['an unknown currency', { currency: 'ABC' }, 'currency'],
    ['a negative price', { monthlyPricePerLocation: -1 }, 'monthlyPricePerLocation'],
    ['a fractional price', { monthlyPricePerLocation: 10.5 }, 'monthlyPricePerLocation'],
    [
      'a discount over 100 %',
      { discounts: { monthly: 0, quarterly: 10_001, semiannually: 0, annually: 0 } },
      'discounts.quarterly',
    ],
    [
      'a discount missing a plan',
      { discounts: { monthly: 0, quarterly: 0, semiannually: 0 } },
      'discounts.annually',
    ],
    ['a trial of 366 days', { trialDays: 366 }, 'trialDays'],
    ['an unknown field', { secret: 'mine' }, '(input)'],
  ])('%s is refused (invalidInput at %s), nothing written', async (_label, fields, path) => {
    const before = { count: await applicationCount(), files: platformFiles() };
    const error = await refusal(
      createApplication(t.db, validInput({ ...fields, logo: sourceFile('ok.png', tinyPng) }), files()),
    );
    expect(error.reason).toBe('invalidInput');
    expect(error.issues.map((issue) => issue.path)).toContain(path);
    expect(error.message).toContain(path);
    expect({ count: await applicationCount(), files: platformFiles() }).toEqual(before);
  });

  it.each([
    ['a text file', () => sourceFile('logo.png', 'not an image')],
    ['a GIF', () => sourceFile('logo.gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))],
    [
      'an SVG with script',
      () => sourceFile('evil.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ],
    [
      'an SVG with an event handler',
      () => sourceFile('evil2.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
    ],
    ['a missing file', () => join(sources, 'nowhere.png')],
    ['a folder', () => sources],
    ['a file over 1 MiB', () => sourceFile('huge.png', Buffer.concat([tinyPng, Buffer.alloc(1024 * 1024)]))],
  ])('a logo that is %s is refused (logoNotUsable), nothing written', async (_label, path) => {
    const before = { count: await applicationCount(), files: platformFiles() };
    const logo = path();
    const error = await refusal(createApplication(t.db, validInput({ logo }), files()));
    expect(error.reason).toBe('logoNotUsable');
    expect(error.message).toContain(logo);
    expect({ count: await applicationCount(), files: platformFiles() }).toEqual(before);
  });

  it('a logo is copied into file storage and served to anyone at /files/platform/…', async () => {
    const png = await createApplication(t.db, validInput({ logo: sourceFile('logo.png', tinyPng) }), files());
    expect(png.application.logo).toMatch(/^\/files\/platform\/[0-9a-f-]{36}\.png$/);
    const served = await fetchFile(png.application.logo!);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.bytes, tinyPng)).toBe(0);

    const svg = await createApplication(
      t.db,
      validInput({ logo: sourceFile('logo.svg', plainSvg) }),
      files(),
    );
    expect(svg.application.logo).toMatch(/^\/files\/platform\/[0-9a-f-]{36}\.svg$/);
    const servedSvg = await fetchFile(svg.application.logo!);
    expect(servedSvg.status).toBe(200);
    expect(servedSvg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // Opened on its own, an SVG may run nothing.
    expect(servedSvg.headers['content-security-policy']).toBe("default-src 'none'");
    expect(servedSvg.headers['x-content-type-options']).toBe('nosniff');
    expect(servedSvg.bytes.toString()).toBe(plainSvg);
  });

  it('update: only the named fields change; discounts merge by plan; the client id stays', async () => {
    const { application } = await createApplication(t.db, validInput(), files());
    const { application: changed, secret } = await updateApplication(
      t.db,
      application.clientId,
      {
        name: { ar: 'الكاشير' },
        redirectUris: ['https://pos.example/new-callback'],
        discounts: { annually: 2500 },
        monthlyPricePerLocation: 30_000,
        trialDays: 0,
      },
      files(),
    );
    expect(secret).toBeUndefined();
    expect(changed).toMatchObject({
      id: application.id,
      clientId: application.clientId,
      name: { en: 'Point of sale', ar: 'الكاشير' },
      description: application.description,
      homeUrl: application.homeUrl,
      redirectUris: ['https://pos.example/new-callback'],
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2500 },
      monthlyPricePerLocation: 30_000,
      trialDays: 0,
      clientType: 'public',
    });
    // By id too.
    const byId = await updateApplication(
      t.db,
      application.id,
      { homeUrl: 'https://pos.example/home' },
      files(),
    );
    expect(byId.application.homeUrl).toBe('https://pos.example/home');
  });

  it('update: bad changes or an unknown application are refused, nothing changed', async () => {
    const { application } = await createApplication(
      t.db,
      validInput({ logo: sourceFile('keep.png', tinyPng) }),
      files(),
    );
    const [before] = await t.db.select().from(applications).where(eq(applications.id, application.id));
    const filesBefore = platformFiles();
    for (const changes of [
      { clientId: 'renamed' },
      { redirectUris: ['https://pos.example/#x'] },
      { discounts: { quarterly: -5 } },
      { name: { en: '' } },
      { currency: 'EURO' },
    ]) {
      expect((await refusal(updateApplication(t.db, application.clientId, changes, files()))).reason).toBe(
        'invalidInput',
      );
    }
    expect(
      (
        await refusal(
          updateApplication(t.db, application.clientId, { logo: sourceFile('bad.png', 'text') }, files()),
        )
      ).reason,
    ).toBe('logoNotUsable');
    const missing = await refusal(updateApplication(t.db, 'no-such-app', { trialDays: 1 }, files()));
    expect(missing.reason).toBe('notFound');
    expect(missing.message).toContain('no-such-app');
    // An unknown application with a new logo: the copied file goes again.
    expect(
      (
        await refusal(
          updateApplication(t.db, 'no-such-app', { logo: sourceFile('orphan.png', tinyPng) }, files()),
        )
      ).reason,
    ).toBe('notFound');
    const [after] = await t.db.select().from(applications).where(eq(applications.id, application.id));
    expect(after).toEqual(before);
    expect(platformFiles()).toEqual(filesBefore);
  });

  it('update: a new logo replaces the old file; logo null removes it', async () => {
    const { application } = await createApplication(
      t.db,
      validInput({ logo: sourceFile('old.png', tinyPng) }),
      files(),
    );
    const oldLogo = application.logo!;
    const { application: changed } = await updateApplication(
      t.db,
      application.clientId,
      { logo: sourceFile('new.svg', plainSvg) },
      files(),
    );
    expect(changed.logo).toMatch(/\.svg$/);
    expect((await fetchFile(changed.logo!)).status).toBe(200);
    expect((await fetchFile(oldLogo)).status).toBe(404);
    const { application: cleared } = await updateApplication(
      t.db,
      application.clientId,
      { logo: null },
      files(),
    );
    expect(cleared.logo).toBeNull();
    expect((await fetchFile(changed.logo!)).status).toBe(404);
  });

  it('update: becoming confidential makes a secret (shown once); becoming public drops it', async () => {
    const { application } = await createApplication(t.db, validInput(), files());
    const confidential = await updateApplication(
      t.db,
      application.clientId,
      { clientType: 'confidential' },
      files(),
    );
    expect(confidential.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(confidential.application.hasSecret).toBe(true);
    expect(await applicationSecretMatches(t.db, application.clientId, confidential.secret!)).toBe(true);
    // A change that keeps it confidential keeps its secret and shows none.
    const renamed = await updateApplication(t.db, application.clientId, { name: { en: 'Till' } }, files());
    expect(renamed.secret).toBeUndefined();
    expect(await applicationSecretMatches(t.db, application.clientId, confidential.secret!)).toBe(true);

    const backToPublic = await updateApplication(
      t.db,
      application.clientId,
      { clientType: 'public' },
      files(),
    );
    expect(backToPublic.application.hasSecret).toBe(false);
    const [row] = await t.db.select().from(applications).where(eq(applications.id, application.id));
    expect(row!.secretHash).toBeNull();
  });

  it('rotate: a new secret, shown once; the old one stops working; a public client has none', async () => {
    const input = validInput({ clientType: 'confidential' });
    const { secret: first } = await createApplication(t.db, input, files());
    const rotated = await rotateApplicationSecret(t.db, input.clientId);
    expect(rotated.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(first);
    expect(await applicationSecretMatches(t.db, input.clientId, first!)).toBe(false);
    expect(await applicationSecretMatches(t.db, input.clientId, rotated.secret!)).toBe(true);

    const publicOne = await createApplication(t.db, validInput(), files());
    const [before] = await t.db
      .select()
      .from(applications)
      .where(eq(applications.id, publicOne.application.id));
    expect((await refusal(rotateApplicationSecret(t.db, publicOne.application.clientId))).reason).toBe(
      'publicClient',
    );
    const [after] = await t.db
      .select()
      .from(applications)
      .where(eq(applications.id, publicOne.application.id));
    expect(after).toEqual(before);
    expect((await refusal(rotateApplicationSecret(t.db, 'no-such-app'))).reason).toBe('notFound');
  });
});

describe('the demo application at first start', () => {
  const demoRows = () => t.db.select().from(applications).where(eq(applications.clientId, 'dukkan-demo'));
  async function forget() {
    await t.db.delete(applications).where(eq(applications.clientId, 'dukkan-demo'));
    await t.db.delete(appMeta).where(eq(appMeta.key, 'demo_application'));
  }

  it('is registered once, on a data folder that was bootstrapped before applications existed', async () => {
    await forget();
    // An existing data folder: the first start's marker is there, the demo application's is not.
    await t.db.insert(appMeta).values({ key: 'bootstrap', value: 'earlier' }).onConflictDoNothing();
    expect(await bootstrapDemoApplication(t.db, files())).toEqual({ created: true });
    expect(await bootstrapDemoApplication(t.db, files())).toEqual({ created: false });
    const rows = await demoRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      clientId: 'dukkan-demo',
      nameEn: 'Demo app',
      nameAr: 'التطبيق التجريبي',
      clientType: 'public',
      secretHash: null,
      redirectUris: ['http://localhost:3001/callback'],
      homeUrl: 'http://localhost:3001/',
      currency: 'EGP',
      monthlyPricePerLocation: 25_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
      trialDays: 14,
    });
    expect(rows[0]!.descriptionEn).not.toBe('');
    expect(rows[0]!.descriptionAr).not.toBe('');
    expect(demoClientRedirectUri).toBe(rows[0]!.redirectUris[0]);
    // Its logo, the SVG shipped in apps/server/assets, is served.
    const logo = await fetchFile(rows[0]!.logo!);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.bytes.toString()).toBe(
      readFileSync(new URL('../assets/demo-application-logo.svg', import.meta.url), 'utf8'),
    );
  });

  it('an operator who removed it is not overridden by the next start', async () => {
    await t.db.delete(applications).where(eq(applications.clientId, 'dukkan-demo'));
    expect(await bootstrapDemoApplication(t.db, files())).toEqual({ created: false });
    expect(await demoRows()).toHaveLength(0);
  });

  it('two instances starting at once register it once', async () => {
    await forget();
    const results = await Promise.all([
      bootstrapDemoApplication(t.db, files()),
      bootstrapDemoApplication(t.db, files()),
    ]);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await demoRows()).toHaveLength(1);
  });

  it('a dukkan-demo the operator registered first is left as it is', async () => {
    await forget();
    await insertApplication(t.db, { clientId: 'dukkan-demo', nameEn: 'Our own demo' });
    expect(await bootstrapDemoApplication(t.db, files())).toEqual({ created: false });
    expect((await demoRows()).map((row) => row.nameEn)).toEqual(['Our own demo']);
  });
});

describe('GET /api/applications (the dashboard)', () => {
  let shop: { id: string };
  let other: { id: string };
  let admin: TestMember;
  /** Client id → its application's id; names chosen so English and Arabic orders differ. */
  const apps: Record<string, string> = {};
  const dashboardSchema = z.object({
    data: z.array(dashboardApplicationSchema),
    meta: z.strictObject({ activeLocations: z.int(), reviewHours: z.int().nullable(), graceDays: z.int() }),
  });

  beforeAll(async () => {
    shop = await createWorkspace(t.db, 'Dashboard shop');
    other = await createWorkspace(t.db, 'Dashboard other');
    admin = await addMember(t.db, shop.id, { isAdmin: true });
    // A fresh database of its own: only these applications exist.
    await t.db.delete(applications);
    const names: [string, string, string, number][] = [
      // client id, English, Arabic, trial days
      ['none', 'Alpha', 'ياء', 14],
      ['none-no-trial', 'Bravo', 'واو', 0],
      ['trial', 'Charlie', 'هاء', 14],
      ['pending', 'Delta', 'نون', 14],
      ['approved', 'Echo', 'ميم', 14],
      ['cancelling', 'Foxtrot', 'لام', 14],
      ['grace', 'Golf', 'كاف', 14],
      ['trial-over', 'Hotel', 'قاف', 14],
      ['rejected', 'India', 'فاء', 14],
      ['expired', 'Juliet', 'عين', 14],
      ['others-only', 'Kilo', 'سين', 14],
    ];
    for (const [clientId, nameEn, nameAr, trialDays] of names) {
      apps[clientId] = (await insertApplication(t.db, { clientId, nameEn, nameAr, trialDays })).id;
    }
    const period = { startDate: new Date('2025-01-01T00:00:00Z'), endDate: new Date('2025-02-01T00:00:00Z') };
    await insertSubscription(t.db, shop.id, apps.trial!, 'freeTrial', { ...period, trialUsed: true });
    await insertSubscription(t.db, shop.id, apps.pending!, 'pending', { plan: 'quarterly' });
    await insertSubscription(t.db, shop.id, apps.approved!, 'approved', {
      ...period,
      plan: 'monthly',
      nextPlan: 'annually',
    });
    await insertSubscription(t.db, shop.id, apps.cancelling!, 'approved', {
      ...period,
      plan: 'monthly',
      cancelling: true,
    });
    await insertSubscription(t.db, shop.id, apps.grace!, 'approved', {
      ...period,
      plan: 'monthly',
      graceEndsAt: new Date('2025-02-08T00:00:00Z'),
    });
    await insertSubscription(t.db, shop.id, apps['trial-over']!, 'expiredFreeTrial', {
      ...period,
      trialUsed: true,
    });
    await insertSubscription(t.db, shop.id, apps.rejected!, 'rejected', { plan: 'annually' });
    await insertSubscription(t.db, shop.id, apps.expired!, 'expiredSubscription', {
      ...period,
      plan: 'monthly',
    });
    // Another workspace's subscriptions: never shown to the shop.
    await insertSubscription(t.db, other.id, apps['others-only']!, 'approved', {
      ...period,
      plan: 'monthly',
    });
    await insertSubscription(t.db, other.id, apps.none!, 'pending', { plan: 'monthly' });

    // Two active locations and an inactive one here; one elsewhere.
    for (const [workspaceId, statuses] of [
      [shop.id, ['active', 'active', 'inactive']],
      [other.id, ['active']],
    ] as const) {
      const [brand] = await t.db
        .insert(brands)
        .values({ workspaceId, code: unique('B'), nameEn: 'Brand' })
        .returning({ id: brands.id });
      for (const status of statuses) {
        await t.db
          .insert(locations)
          .values({ workspaceId, code: unique('L'), nameEn: 'Branch', brandId: brand!.id, status });
      }
    }
  });

  const dashboard = (
    cookie: string | undefined,
    workspaceId = shop.id,
    headers: Record<string, string> = {},
  ) => api(t.app, { url: `/api/applications?workspaceId=${workspaceId}`, cookie, headers });

  it('every application with its pricing, the workspace’s subscription, card and allowed events', async () => {
    const response = await dashboard(admin.cookie);
    expect(response.status).toBe(200);
    const body = dashboardSchema.parse(response.json);
    expect(body.meta).toEqual({ activeLocations: 2, reviewHours: null, graceDays: 5 });
    const byClient = Object.fromEntries(body.data.map((entry) => [entry.clientId, entry]));
    const states = Object.fromEntries(
      body.data.map((entry) => [
        entry.clientId,
        { card: entry.card, allowedEvents: entry.allowedEvents, trialUsed: entry.trialUsed },
      ]),
    );
    expect(states).toEqual({
      none: { card: 'notSubscribed', allowedEvents: ['startTrial', 'request'], trialUsed: false },
      // No free trial to start when the application has none.
      'none-no-trial': { card: 'notSubscribed', allowedEvents: ['request'], trialUsed: false },
      trial: { card: 'freeTrial', allowedEvents: ['request', 'cancel'], trialUsed: true },
      pending: { card: 'waitingForActivation', allowedEvents: ['changePlan'], trialUsed: false },
      approved: { card: 'subscribed', allowedEvents: ['changePlan', 'cancel'], trialUsed: false },
      // Cancelling: it ends with its period, nothing more to do but wait.
      cancelling: { card: 'subscribed', allowedEvents: [], trialUsed: false },
      grace: { card: 'subscribed', allowedEvents: ['changePlan', 'cancel'], trialUsed: false },
      'trial-over': { card: 'expiredFreeTrial', allowedEvents: ['request'], trialUsed: true },
      rejected: { card: 'rejected', allowedEvents: ['request'], trialUsed: false },
      expired: { card: 'expiredSubscription', allowedEvents: ['request', 'renew'], trialUsed: false },
      'others-only': { card: 'notSubscribed', allowedEvents: ['startTrial', 'request'], trialUsed: false },
    });

    const approved = byClient.approved as DashboardApplication;
    expect(approved).toMatchObject({
      id: apps.approved,
      name: [
        { locale: 'en', value: 'Echo' },
        { locale: 'ar', value: 'ميم' },
      ],
      homeUrl: 'https://approved.example/',
      logo: null,
      pricing: {
        currency: 'EGP',
        monthlyPricePerLocation: 10_000,
        discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
        trialDays: 14,
      },
      subscription: {
        status: 'approved',
        plan: 'monthly',
        nextPlan: 'annually',
        startDate: '2025-01-01T00:00:00.000Z',
        endDate: '2025-02-01T00:00:00.000Z',
        cancelling: false,
        graceEndsAt: null,
      },
    });
    expect(byClient.grace!.subscription!.graceEndsAt).toBe('2025-02-08T00:00:00.000Z');
    expect(byClient.pending!.subscription).toMatchObject({
      plan: 'quarterly',
      startDate: null,
      endDate: null,
    });
    // Another workspace's subscriptions never show: to the shop these are unsubscribed.
    expect(byClient['others-only']!.subscription).toBeNull();
    expect(byClient.none!.subscription).toBeNull();
    // No secret or redirect URI reaches a workspace.
    expect(response.text).not.toMatch(/secret|redirect|callback/i);
  });

  it('sorted by name in the reader’s language', async () => {
    const order = async (headers: Record<string, string>) =>
      dataOf<DashboardApplication[]>(await dashboard(admin.cookie, shop.id, headers)).map(
        (entry) => entry.clientId,
      );
    const english = await order({});
    expect(english[0]).toBe('none');
    expect(english.at(-1)).toBe('others-only');
    const arabic = await order({ 'accept-language': 'ar-EG,ar;q=0.9' });
    // The Arabic names run backwards through the alphabet as the English ones run forwards.
    expect(arabic).toEqual([...english].reverse());
  });

  it('the other workspace sees its own subscriptions and locations', async () => {
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    const body = dashboardSchema.parse((await dashboard(otherAdmin.cookie, other.id)).json);
    expect(body.meta.activeLocations).toBe(1);
    const cards = Object.fromEntries(body.data.map((entry) => [entry.clientId, entry.card]));
    expect(cards).toMatchObject({
      'others-only': 'subscribed',
      none: 'waitingForActivation',
      approved: 'notSubscribed',
    });
  });

  it('a member with viewApplications may read it; without it 403; signed out 401', async () => {
    const viewer = await addMember(t.db, shop.id, { tags: ['viewApplications'] });
    expect((await dashboard(viewer.cookie)).status).toBe(200);
    const stranger = await addMember(t.db, shop.id, { tags: ['viewUsers', 'viewSubscriptions'] });
    const forbidden = await dashboard(stranger.cookie);
    expect(forbidden.status).toBe(403);
    expect(errorOf(forbidden).code).toBe('FORBIDDEN');
    // A viewer of the shop is nobody in the other workspace.
    expect((await dashboard(viewer.cookie, other.id)).status).toBe(403);
    const signedOut = await dashboard(undefined);
    expect(signedOut.status).toBe(401);
    expect(errorOf(signedOut).code).toBe('UNAUTHORIZED');
  });

  it('an unknown query parameter is refused', async () => {
    const response = await api(t.app, {
      url: `/api/applications?workspaceId=${shop.id}&all=1`,
      cookie: admin.cookie,
    });
    expect(response.status).toBe(400);
  });

  describe('GET /api/applications/installed', () => {
    const installed = (
      cookie: string | undefined,
      workspaceId = shop.id,
      headers: Record<string, string> = {},
    ) => api(t.app, { url: `/api/applications/installed?workspaceId=${workspaceId}`, cookie, headers });

    it('the applications the workspace may use now: approved (in grace or cancelling too) or in a free trial', async () => {
      const response = await installed(admin.cookie);
      expect(response.status).toBe(200);
      expect(dataOf<{ clientId: string }[]>(response).map((entry) => entry.clientId)).toEqual([
        'trial',
        'approved',
        'cancelling',
        'grace',
      ]);
      expect(dataOf<unknown[]>(response)[0]).toEqual({
        clientId: 'trial',
        name: [
          { locale: 'en', value: 'Charlie' },
          { locale: 'ar', value: 'هاء' },
        ],
        grantable: true,
      });
      const arabic = await installed(admin.cookie, shop.id, { 'accept-language': 'ar' });
      expect(dataOf<{ clientId: string }[]>(arabic).map((entry) => entry.clientId)).toEqual([
        'grace',
        'cancelling',
        'approved',
        'trial',
      ]);
      const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
      expect(dataOf<{ clientId: string }[]>(await installed(otherAdmin.cookie, other.id))).toEqual([
        expect.objectContaining({ clientId: 'others-only' }),
      ]);
    });

    it('grantable: an admin may give every one; anyone else only those their membership lists', async () => {
      const grantable = async (cookie: string) =>
        Object.fromEntries(
          dataOf<{ clientId: string; grantable: boolean }[]>(await installed(cookie)).map((entry) => [
            entry.clientId,
            entry.grantable,
          ]),
        );
      expect(await grantable(admin.cookie)).toEqual({
        trial: true,
        approved: true,
        cancelling: true,
        grace: true,
      });
      // A listed application the workspace no longer has installed is not offered at all.
      const manager = await addMember(t.db, shop.id, {
        tags: ['addUsers'],
        applications: ['approved', 'grace', 'others-only'],
      });
      expect(await grantable(manager.cookie)).toEqual({
        trial: false,
        approved: true,
        cancelling: false,
        grace: true,
      });
    });

    it('allowed with any of viewUsers, addUsers or editUsers; 403 otherwise; 401 signed out', async () => {
      for (const tag of ['viewUsers', 'addUsers', 'editUsers']) {
        const member = await addMember(t.db, shop.id, { tags: [tag] });
        expect((await installed(member.cookie)).status, tag).toBe(200);
      }
      const dashboardOnly = await addMember(t.db, shop.id, { tags: ['viewApplications', 'deleteUsers'] });
      expect((await installed(dashboardOnly.cookie)).status).toBe(403);
      expect((await installed(undefined)).status).toBe(401);
    });
  });
});

describe('memberMayUseApplication (the sign-in portal’s check)', () => {
  it('admin: any installed application; member: listed and installed; disabled or invited: none', async () => {
    const shop = await createWorkspace(t.db);
    const elsewhere = await createWorkspace(t.db);
    const pos = await insertApplication(t.db);
    const kds = await insertApplication(t.db);
    const waiting = await insertApplication(t.db);
    const theirs = await insertApplication(t.db);
    await insertSubscription(t.db, shop.id, pos.id, 'approved', { plan: 'monthly' });
    await insertSubscription(t.db, shop.id, kds.id, 'freeTrial');
    await insertSubscription(t.db, shop.id, waiting.id, 'pending', { plan: 'monthly' });
    await insertSubscription(t.db, elsewhere.id, theirs.id, 'approved', { plan: 'monthly' });
    const listAll = [pos.clientId, kds.clientId, waiting.clientId, theirs.clientId];
    const setApplications = (userId: string, list: string[]) =>
      t.db.update(memberships).set({ applications: list }).where(eq(memberships.userId, userId));

    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const member = await addMember(t.db, shop.id, { tags: [] });
    await setApplications(member.user.id, [pos.clientId, waiting.clientId, theirs.clientId]);
    const disabled = await addMember(t.db, shop.id, { tags: [], status: 'inactive' });
    await setApplications(disabled.user.id, listAll);
    const invited = await addMember(t.db, shop.id, { tags: [], status: 'invited' });
    await setApplications(invited.user.id, listAll);
    const disabledAdmin = await addMember(t.db, shop.id, { isAdmin: true, status: 'inactive' });

    const may = async (userId: string) => {
      const result: Record<string, boolean> = {};
      for (const app of [pos, kds, waiting, theirs]) {
        result[app.clientId] = await memberMayUseApplication(t.db, shop.id, userId, app.clientId);
      }
      return Object.values(result);
    };
    // pos (approved), kds (trial), waiting (pending), theirs (installed in another workspace)
    expect(await may(admin.user.id)).toEqual([true, true, false, false]);
    expect(await may(member.user.id)).toEqual([true, false, false, false]);
    expect(await may(disabled.user.id)).toEqual([false, false, false, false]);
    expect(await may(invited.user.id)).toEqual([false, false, false, false]);
    expect(await may(disabledAdmin.user.id)).toEqual([false, false, false, false]);
    // A stranger to the workspace, an unknown application, ids that are no uuid.
    const stranger = await addMember(t.db, elsewhere.id, { isAdmin: true });
    expect(await memberMayUseApplication(t.db, shop.id, stranger.user.id, pos.clientId)).toBe(false);
    expect(await memberMayUseApplication(t.db, elsewhere.id, stranger.user.id, theirs.clientId)).toBe(true);
    expect(await memberMayUseApplication(t.db, shop.id, admin.user.id, 'no-such-app')).toBe(false);
    expect(await memberMayUseApplication(t.db, 'not-a-uuid', admin.user.id, pos.clientId)).toBe(false);
    expect(await memberMayUseApplication(t.db, shop.id, 'not-a-uuid', pos.clientId)).toBe(false);
  });
});
