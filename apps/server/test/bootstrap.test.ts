import { allPermissionTags, strongPasswordPattern } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.ts';
import {
  appMeta,
  brands,
  categories,
  customers,
  exchangeRates,
  locations,
  memberships,
  roles,
  users,
  workspaces,
} from '../src/db/schema/index.ts';
import { api, dataOf, login, tableCounts } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** What the first start seeds: two brands, a location each, two category trees of three… */
const demoCatalogueCounts = { brands: 2, locations: 2, categories: 6, customers: 3, exchangeRates: 3 };

async function catalogueCounts() {
  const tables = { brands, locations, categories, customers, exchangeRates };
  const counts: Record<string, number> = {};
  for (const [key, table] of Object.entries(tables))
    counts[key] = (await t.db.select({ n: count() }).from(table))[0]!.n;
  return counts;
}

/** Back to a never-started database (one database per file keeps the suite fast). */
async function wipe() {
  await t.db.delete(workspaces);
  await t.db.delete(users);
  await t.db.delete(appMeta).where(eq(appMeta.key, 'bootstrap'));
  expect(await tableCounts(t.db)).toMatchObject({ workspaces: 0, users: 0, roles: 0, memberships: 0 });
}

describe('first start with BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD', () => {
  it('creates one workspace, its admin and a full role; the admin signs in with those credentials', async () => {
    const result = await bootstrapDemo(t.db, { email: 'owner@shop.example', password: 'Owner#Pass1' });
    expect(result).toEqual({ created: true, email: 'owner@shop.example', generatedPassword: undefined });

    const [workspace] = await t.db.select().from(workspaces);
    expect(workspace!.name).toBe('Demo Store');
    // The demo's exchange rates are against it.
    expect(workspace!.baseCurrency).toBe('EGP');
    const [admin] = await t.db.select().from(users);
    expect(admin).toMatchObject({ email: 'owner@shop.example', name: 'Demo Admin' });
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$/);
    // The admin is an active admin member without a role: admins pass every check anyway.
    expect(await t.db.select().from(memberships)).toEqual([
      expect.objectContaining({
        workspaceId: workspace!.id,
        userId: admin!.id,
        isAdmin: true,
        status: 'active',
        roleId: null,
      }),
    ]);
    const [role] = await t.db.select().from(roles);
    expect(role!.permissions).toEqual([...allPermissionTags]);
    // A small catalogue, so the first screens are not empty; a sub-category under its parent.
    expect(await catalogueCounts()).toEqual(demoCatalogueCounts);
    const [bread] = await t.db.select().from(categories).where(eq(categories.code, 'BREAD'));
    const [bakery] = await t.db.select().from(categories).where(eq(categories.code, 'BAKERY'));
    expect(bread!.parentId).toBe(bakery!.id);

    const cookie = await login(t.app, { email: 'owner@shop.example', password: 'Owner#Pass1' });
    const me = dataOf<{ adminWorkspaces: { id: string; name: string }[] }>(
      await api(t.app, { url: '/api/auth/user', cookie }),
    );
    expect(me.adminWorkspaces).toEqual([
      {
        id: workspace!.id,
        name: 'Demo Store',
        logo: null,
        baseCurrency: 'EGP',
        timeZone: 'Africa/Cairo',
        requireSecondFactor: false,
      },
    ]);
  });

  it('a restart (even with other credentials) duplicates and resets nothing', async () => {
    const before = await tableCounts(t.db);
    const [adminBefore] = await t.db.select().from(users);
    expect(await bootstrapDemo(t.db, { email: 'owner@shop.example', password: 'Owner#Pass1' })).toEqual({
      created: false,
    });
    expect(await bootstrapDemo(t.db, { email: 'other@shop.example', password: 'Other#Pass1' })).toEqual({
      created: false,
    });
    expect(await bootstrapDemo(t.db)).toEqual({ created: false });
    const after = await tableCounts(t.db);
    expect(after.workspaces).toBe(1);
    expect(after.users).toBe(before.users);
    expect(after.memberships).toBe(1);
    expect(after.roles).toBe(1);
    expect(await catalogueCounts()).toEqual(demoCatalogueCounts);
    const [adminAfter] = await t.db.select().from(users);
    expect(adminAfter!.passwordHash).toBe(adminBefore!.passwordHash);
    await login(t.app, { email: 'owner@shop.example', password: 'Owner#Pass1' });
  });
});

describe('first start without credentials', () => {
  it('returns a generated password, once, that satisfies the password rules and signs in', async () => {
    await wipe();
    const result = await bootstrapDemo(t.db);
    expect(result.created).toBe(true);
    expect(result.email).toBe('admin@dukkan.localhost');
    expect(result.generatedPassword).toMatch(strongPasswordPattern);
    expect(result.generatedPassword!.length).toBeGreaterThanOrEqual(16);
    const [admin] = await t.db.select().from(users);
    expect(admin!.passwordHash).not.toContain(result.generatedPassword!);

    await login(t.app, { email: 'admin@dukkan.localhost', password: result.generatedPassword! });
    expect(await bootstrapDemo(t.db)).toEqual({ created: false });
  });

  it('two instances starting at once create it only once', async () => {
    await wipe();
    const results = await Promise.all([
      bootstrapDemo(t.db, { email: 'a@shop.example', password: 'First#Pass1' }),
      bootstrapDemo(t.db, { email: 'b@shop.example', password: 'Second#Pass1' }),
    ]);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await tableCounts(t.db)).toMatchObject({ workspaces: 1, users: 1, memberships: 1, roles: 1 });
  });
});

describe('an admin who already exists (invited before the first start)', () => {
  it('becomes the demo admin and gets the bootstrap password only if they had none', async () => {
    const t = await createTestApp();
    try {
      await t.db.delete(appMeta).where(eq(appMeta.key, 'bootstrap'));
      await t.db.insert(users).values({ email: 'early@shop.example', name: '' });
      await bootstrapDemo(t.db, { email: 'early@shop.example', password: 'Early#Pass1' });
      const response = await api(t.app, {
        url: '/api/auth/login',
        body: { email: 'early@shop.example', password: 'Early#Pass1' },
      });
      expect(response.status).toBe(200);
      expect(dataOf<{ name: string; adminWorkspaces: { name: string }[] }>(response)).toMatchObject({
        name: 'Demo Admin',
        adminWorkspaces: [{ name: 'Demo Store' }],
      });
    } finally {
      await t.close();
    }
  });
});
