import type { AuditLogRecord } from '@dukkan/contract';
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type AuditEntry, asRecordedActor, recordAudit, redacted } from '../src/db/audit-log.ts';
import type { Database } from '../src/db/client.ts';
import { type AuditLogRow, auditLog, brands, signInEvents, workspaces } from '../src/db/schema/index.ts';
import { api, createUser, dataOf, login, strongPassword } from './helpers/api.ts';
import { keysOf, sizes, useCatalogueShop } from './helpers/product-catalogue.ts';
import { sampleOf } from './helpers/route-scenarios.ts';
import type { TestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * The audit log's recording side: one row per changed record, in the write's transaction, with
 * the actor and request, the action and `{ field: [before, after] }`; none when nothing changed.
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;
let catalogue: Parameters<Parameters<typeof useCatalogueShop>[1]>[0]['catalogue'];

useCatalogueShop('Audit Shop', (given) => {
  ({ t, shop, admin, catalogue } = given);
});

async function rowsOf(resource: string, recordId: string): Promise<AuditLogRow[]> {
  return t.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.workspaceId, shop.id),
        eq(auditLog.resource, resource),
        eq(auditLog.recordId, recordId),
      ),
    )
    .orderBy(asc(auditLog.at), asc(auditLog.id));
}

async function rowsOfRequest(requestId: string): Promise<AuditLogRow[]> {
  return t.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
}

/** A record's status change as a feature names it: enabled, disabled or accepted. */
function statusEntry(
  workspaceId: string,
  action: AuditEntry['action'],
  resource: string,
  recordId: string,
  extra: Partial<AuditEntry> = {},
): AuditEntry {
  return {
    workspaceId,
    action,
    resource,
    recordId,
    changes: { status: action === 'disable' ? ['active', 'inactive'] : ['inactive', 'active'] },
    ...extra,
  };
}

describe('the engine records every write of every resource', () => {
  it('a create, an update, a disable, an enable and a delete: one row each, the request and member named', async () => {
    const created = await catalogue.call('POST', 'brands', {
      code: unique('b'),
      name: [{ locale: 'en', value: 'Acme' }],
    });
    expect(created.status).toBe(201);
    const id = dataOf<{ id: string }>(created).id;
    const [create] = await rowsOf('brands', id);
    expect(create).toMatchObject({
      action: 'create',
      actorKind: 'member',
      actorUserId: admin.user.id,
      requestId: created.headers['x-request-id'],
      userAgent: 'lightMyRequest',
    });
    expect(create!.address).toBeTruthy();
    expect(create!.changes.nameEn).toEqual([null, 'Acme']);
    expect(create!.changes).not.toHaveProperty('id');
    expect(create!.changes).not.toHaveProperty('createdAt');
    expect(create!.changes).not.toHaveProperty('workspaceId');

    expect(
      (await catalogue.call('PATCH', `brands/${id}`, { name: [{ locale: 'en', value: 'Acme Co' }] })).status,
    ).toBe(200);
    expect((await catalogue.call('PATCH', `brands/${id}`, { status: 'inactive' })).status).toBe(200);
    expect((await catalogue.call('PATCH', `brands/${id}`, { status: 'active' })).status).toBe(200);
    expect((await catalogue.call('DELETE', `brands/${id}`)).status).toBe(200);

    const rows = await rowsOf('brands', id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'disable', 'enable', 'delete']);
    expect(rows[1]!.changes).toEqual({ nameEn: ['Acme', 'Acme Co'] });
    expect(rows[2]!.changes).toEqual({ status: ['active', 'inactive'] });
    expect(rows[4]!.changes.nameEn).toEqual(['Acme Co', null]);
  });

  it("lists a row's fields in the order the record declares them, as written (decision 0060)", async () => {
    const created = await catalogue.call('POST', 'brands', {
      code: unique('b'),
      name: [
        { locale: 'en', value: 'Ordered' },
        { locale: 'ar', value: 'مرتب' },
      ],
      creationDate: '2026-01-31',
      currencies: ['SAR'],
    });
    expect(created.status, created.text).toBe(201);
    const id = dataOf<{ id: string }>(created).id;
    const [row] = dataOf<AuditLogRecord[]>(
      await catalogue.call('GET', `audit-log?resource=brands&recordId=${id}`),
    );
    // The brand's own columns, in its table's order: jsonb would have sorted them by length.
    const declared = Object.keys(getTableColumns(brands)).filter((field) => field in row!.changes);
    expect(declared).toEqual(['code', 'nameEn', 'nameAr', 'creationDate', 'currencies', 'status']);
    expect(Object.keys(row!.changes)).toEqual(declared);
  });

  it("a brand's delete records each customer whose brand it cleared", async () => {
    const brandId = dataOf<{ id: string }>(
      await catalogue.call('POST', 'brands', { code: unique('b'), name: [{ locale: 'en', value: 'Gone' }] }),
    ).id;
    const customer = await catalogue.call('POST', 'customers', {
      ...sampleOf('customers')({}),
      brandId,
    });
    expect(customer.status, customer.text).toBe(201);
    const customerId = dataOf<{ id: string }>(customer).id;
    const deleted = await catalogue.call('DELETE', `brands/${brandId}`);
    expect(deleted.status).toBe(200);
    const rows = await rowsOfRequest(deleted.headers['x-request-id'] as string);
    expect(rows.map((row) => [row.resource, row.recordId, row.action])).toEqual(
      expect.arrayContaining([
        ['brands', brandId, 'delete'],
        ['customers', customerId, 'update'],
      ]),
    );
    expect(rows.find((row) => row.resource === 'customers')!.changes).toEqual({ brandId: [brandId, null] });
  });

  it('a save that changes nothing writes no row', async () => {
    const code = unique('b');
    const id = dataOf<{ id: string }>(
      await catalogue.call('POST', 'brands', { code, name: [{ locale: 'en', value: 'Same' }] }),
    ).id;
    const response = await catalogue.call('PATCH', `brands/${id}`, {
      code,
      name: [{ locale: 'en', value: 'Same' }],
    });
    expect(response.status).toBe(200);
    expect(await rowsOfRequest(response.headers['x-request-id'] as string)).toEqual([]);
    expect((await rowsOf('brands', id)).map((row) => row.action)).toEqual(['create']);
  });

  it('a bulk of three writes three rows, never merged, each as a single write would', async () => {
    const response = await catalogue.call(
      'POST',
      'brands/bulk',
      [1, 2, 3].map((n) => ({ code: unique('b'), name: [{ locale: 'en', value: `Bulk ${n}` }] })),
    );
    expect(response.status).toBe(201);
    const rows = await rowsOfRequest(response.headers['x-request-id'] as string);
    expect(rows).toHaveLength(3);
    const brands = dataOf<{ id: string; code: string }[]>(response);
    expect(new Set(rows.map((row) => row.recordId))).toEqual(new Set(brands.map((brand) => brand.id)));
    // Several rows go in one statement (`recordAudit`): each keeps the request's actor and its own
    // record's changes.
    for (const row of rows) {
      const brand = brands.find((each) => each.id === row.recordId)!;
      expect(row).toMatchObject({
        workspaceId: shop.id,
        action: 'create',
        resource: 'brands',
        actorKind: 'member',
        actorUserId: admin.user.id,
        userAgent: 'lightMyRequest',
      });
      expect(row.address).toBeTruthy();
      expect(row.changes.code).toEqual([null, brand.code]);
      expect(row.changes.nameEn).toEqual([null, `Bulk ${brands.indexOf(brand) + 1}`]);
    }
  });

  it('rows of several resources, actions and actors in one write each keep their own', async () => {
    const other = await createWorkspace(t.db);
    const requestId = unique('request-');
    const entries: AuditEntry[] = [
      statusEntry(shop.id, 'enable', 'brands', 'b1'),
      statusEntry(shop.id, 'disable', 'brands', 'b2'),
      statusEntry(shop.id, 'enable', 'tags', 't1'),
      statusEntry(other.id, 'enable', 'brands', 'b3'),
      // By its link, not the session's member; and nobody's.
      statusEntry(shop.id, 'accept', 'memberships', 'm1', {
        actorUserId: 'a0c1a2b3-0000-4000-8000-000000000001',
      }),
      statusEntry(shop.id, 'accept', 'memberships', 'm2', { actorUserId: null }),
      statusEntry(shop.id, 'enable', 'brands', 'b4'),
      statusEntry(shop.id, 'update', 'brands', 'b5', { changes: null }),
    ];
    const actor = {
      kind: 'member' as const,
      userId: admin.user.id,
      requestId,
      address: '203.0.113.9',
      userAgent: 'Test',
    };
    const before = Date.now();
    await t.db.transaction((tx) =>
      asRecordedActor(actor, () => recordAudit(tx as unknown as Database, entries)),
    );
    const after = Date.now();
    const rows = await rowsOfRequest(requestId);
    const shape = (row: AuditLogRow) => [
      row.workspaceId,
      row.action,
      row.resource,
      row.recordId,
      row.actorUserId,
    ];
    expect(rows.map(shape).sort()).toEqual(
      [
        [shop.id, 'enable', 'brands', 'b1', admin.user.id],
        [shop.id, 'disable', 'brands', 'b2', admin.user.id],
        [shop.id, 'enable', 'tags', 't1', admin.user.id],
        [other.id, 'enable', 'brands', 'b3', admin.user.id],
        [shop.id, 'accept', 'memberships', 'm1', 'a0c1a2b3-0000-4000-8000-000000000001'],
        [shop.id, 'accept', 'memberships', 'm2', null],
        [shop.id, 'enable', 'brands', 'b4', admin.user.id],
      ].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({ actorKind: 'member', address: '203.0.113.9', userAgent: 'Test' });
      expect(row.changes).toEqual(entries.find((entry) => entry.recordId === row.recordId)!.changes);
    }
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    // Time-ordered ids (version 7): the first 48 bits are the milliseconds they were made at.
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const madeAt = Number.parseInt(row.id.replace('-', '').slice(0, 12), 16);
      expect(madeAt).toBeGreaterThanOrEqual(before);
      expect(madeAt).toBeLessThanOrEqual(after);
    }
  });

  it("a removed workspace's rows go with it, and no other workspace's", async () => {
    const doomed = await createWorkspace(t.db);
    const kept = await createWorkspace(t.db);
    await t.db.transaction((tx) =>
      recordAudit(tx as unknown as Database, [
        statusEntry(doomed.id, 'enable', 'brands', 'd1'),
        statusEntry(doomed.id, 'enable', 'brands', 'd2'),
        statusEntry(kept.id, 'enable', 'brands', 'k1'),
      ]),
    );
    const countIn = async (workspaceId: string) =>
      (await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, workspaceId))).length;
    expect([await countIn(doomed.id), await countIn(kept.id)]).toEqual([2, 1]);
    await t.db.delete(workspaces).where(eq(workspaces.id, doomed.id));
    expect([await countIn(doomed.id), await countIn(kept.id)]).toEqual([0, 1]);
  });

  it('a refused write leaves no row: the row goes with the write it records', async () => {
    const code = unique('b');
    await catalogue.call('POST', 'brands', { code, name: [{ locale: 'en', value: 'First' }] });
    const refused = await catalogue.call('POST', 'brands', {
      code,
      name: [{ locale: 'en', value: 'Again' }],
    });
    expect(refused.status).toBe(409);
    expect(await rowsOfRequest(refused.headers['x-request-id'] as string)).toEqual([]);
  });
});

describe("a product's save: one row, its changed variants by key", () => {
  it('lists new variants on create, then only the changed variant and field on an edit', async () => {
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const product = await catalogue.created({ options: [{ typeId: size.id, valueIds: size.values }] });
    const keys = keysOf(size.values);
    const [create] = await rowsOf('products', product.id);
    const [before, after] = create!.changes.variants as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(after).sort()).toEqual([...keys].sort());
    // A new variant is in `after` alone.
    expect(before).toEqual({});
    expect(create!.changes).not.toHaveProperty('variantCodes');

    const response = await catalogue.update(product.id, { variants: [{ key: keys[1], price: 1234 }] });
    expect(response.status).toBe(200);
    const rows = await rowsOfRequest(response.headers['x-request-id'] as string);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changes.variants).toEqual([
      { [keys[1]!]: { price: 0 } },
      { [keys[1]!]: { price: 1234 } },
    ]);
  });
});

describe("a row's changes as stored", () => {
  // A 2,048-variant save's changes are 450 kB of JSON: with lz4 its row takes 9.2 ms to write,
  // with pglz 12.6 ms (decision 0059). PGlite is built without lz4; its column keeps pglz.
  it('are compressed with lz4 where the database has it', async () => {
    const probe = unique('lz4_probe_');
    const hasLz4 = await t.db
      .execute(sql`create table ${sql.identifier(probe)} (value text compression lz4)`)
      .then(
        () => true,
        () => false,
      );
    if (hasLz4) await t.db.execute(sql`drop table ${sql.identifier(probe)}`);
    const result = await t.db.execute(sql`
      select attcompression::text as compression from pg_attribute
      where attrelid = 'audit_log'::regclass and attname = 'changes'`);
    expect((result as unknown as { rows: { compression: string }[] }).rows).toEqual([
      { compression: hasLz4 ? 'l' : '' },
    ]);
  });
});

describe("a product's save: its recipe's lines on its row", () => {
  it('lists the added, removed and changed lines by ingredient, variant, unit and brands; none when unchanged', async () => {
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const milk = await catalogue.created({ name: [{ locale: 'en', value: 'Milk' }] });
    const beans = await catalogue.created({
      name: [
        { locale: 'en', value: 'Beans' },
        { locale: 'ar', value: 'بن' },
      ],
      options: [{ typeId: size.id, valueIds: size.values }],
    });
    const small = beans.variants!.find((variant) => variant.key === keysOf(size.values)[0])!;
    const brandId = dataOf<{ id: string }>(
      await catalogue.call('POST', 'brands', { code: unique('b'), name: [{ locale: 'en', value: 'Kiosk' }] }),
    ).id;
    const latte = await catalogue.created({
      recipe: [{ ingredientProductId: milk.id, quantity: 2 }],
    });
    const [created] = await rowsOf('products', latte.id);
    const milkLine = {
      ingredient: [{ locale: 'en', value: 'Milk' }],
      variant: null,
      unit: 'pc',
      quantity: 2,
      orderTypes: [],
      brands: [],
    };
    expect(created!.changes.recipe).toEqual([{}, { [milk.id]: milkLine }]);

    const saved = await catalogue.update(latte.id, {
      recipe: [
        { ingredientProductId: milk.id, quantity: 2.5, orderTypes: ['takeaway'], brandIds: [brandId] },
        { ingredientProductId: beans.id, ingredientVariantId: small.id, quantity: 1 },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    const [update] = await rowsOfRequest(saved.headers['x-request-id'] as string);
    expect(update).toMatchObject({ action: 'update', resource: 'products', recordId: latte.id });
    expect(update!.changes.recipe).toEqual([
      { [milk.id]: milkLine },
      {
        [milk.id]: {
          ...milkLine,
          quantity: 2.5,
          orderTypes: ['takeaway'],
          brands: [[{ locale: 'en', value: 'Kiosk' }]],
        },
        [`${beans.id}/${small.id}`]: {
          ingredient: [
            { locale: 'en', value: 'Beans' },
            { locale: 'ar', value: 'بن' },
          ],
          variant: [
            { locale: 'en', value: sizes[0]![0] },
            { locale: 'ar', value: sizes[0]![1] },
          ],
          unit: 'pc',
          quantity: 1,
          orderTypes: [],
          brands: [],
        },
      },
    ]);

    // The same lines again change nothing: no row; a line dropped is on the row alone.
    const same = await catalogue.update(latte.id, {
      recipe: [
        { ingredientProductId: milk.id, quantity: 2.5, orderTypes: ['takeaway'], brandIds: [brandId] },
        { ingredientProductId: beans.id, ingredientVariantId: small.id, quantity: 1 },
      ],
    });
    expect(same.status).toBe(200);
    expect(await rowsOfRequest(same.headers['x-request-id'] as string)).toEqual([]);
    const dropped = await catalogue.update(latte.id, {
      recipe: [{ ingredientProductId: beans.id, ingredientVariantId: small.id, quantity: 1 }],
    });
    const [removal] = await rowsOfRequest(dropped.headers['x-request-id'] as string);
    expect(Object.keys(removal!.changes)).toEqual(['recipe']);
    const [before, after] = removal!.changes.recipe as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(before)).toEqual([milk.id]);
    expect(after).toEqual({});
  });
});

describe("a product's row as the Activity page and History read it", () => {
  it('names the values its changed variants are made of, as they are now, for no other row', async () => {
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const milk = await catalogue.variationType('Milk', 'الحليب', [
      ['Oat', 'شوفان'],
      ['Soy', 'صويا'],
    ]);
    const product = await catalogue.created({
      options: [
        { typeId: size.id, valueIds: size.values.slice(0, 2) },
        { typeId: milk.id, valueIds: milk.values },
      ],
    });
    const key = `${size.values[0]}-${milk.values[1]}`;
    const edited = await catalogue.update(product.id, { variants: [{ key, price: 1500 }] });
    expect(edited.status).toBe(200);
    // A value renamed since is named as it is now.
    expect(
      (
        await catalogue.call('PATCH', `variation-values/${milk.values[1]}`, {
          name: [{ locale: 'en', value: 'Soya' }],
        })
      ).status,
    ).toBe(200);
    const history = dataOf<AuditLogRecord[]>(
      await catalogue.call('GET', `audit-log?resource=products&recordId=${product.id}`),
    );
    expect(history.map((row) => row.action)).toEqual(['update', 'create']);
    const [update, create] = history as [AuditLogRecord, AuditLogRecord];
    expect(update.changes.variants).toEqual([{ [key]: { price: 0 } }, { [key]: { price: 1500 } }]);
    expect(update.names).toEqual({
      [size.values[0]!]: [
        { locale: 'en', value: 'Small' },
        { locale: 'ar', value: 'صغير' },
      ],
      [milk.values[1]!]: [{ locale: 'en', value: 'Soya' }],
    });
    // The create names every value of its four variants, and the types of its options.
    expect(Object.keys(create.names ?? {}).sort()).toEqual(
      [size.id, milk.id, ...size.values.slice(0, 2), ...milk.values].sort(),
    );
    // A row of another resource names nothing.
    const valueRows = dataOf<AuditLogRecord[]>(
      await catalogue.call('GET', 'audit-log?resource=variationValues'),
    );
    expect(valueRows.length).toBeGreaterThan(0);
    expect(valueRows.every((row) => row.names === null)).toBe(true);
  });

  it('names the types and values on either side of a changed options, as they are now', async () => {
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const milk = await catalogue.variationType('Milk', 'الحليب', [
      ['Oat', 'شوفان'],
      ['Soy', 'صويا'],
    ]);
    const product = await catalogue.created({
      options: [{ typeId: size.id, valueIds: size.values.slice(0, 2) }],
    });
    const edited = await catalogue.update(product.id, {
      options: [
        { typeId: size.id, valueIds: [size.values[0]!, size.values[2]!] },
        { typeId: milk.id, valueIds: [milk.values[0]!] },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
    // A type renamed since is named as it is now.
    expect(
      (
        await catalogue.call('PATCH', `variation-types/${milk.id}`, {
          name: [{ locale: 'en', value: 'Milk kind' }],
        })
      ).status,
    ).toBe(200);
    const [update] = dataOf<AuditLogRecord[]>(
      await catalogue.call('GET', `audit-log?resource=products&recordId=${product.id}`),
    );
    expect(update!.action).toBe('update');
    expect(update!.changes.options).toEqual([
      [{ typeId: size.id, valueIds: size.values.slice(0, 2) }],
      [
        { typeId: size.id, valueIds: [size.values[0], size.values[2]] },
        { typeId: milk.id, valueIds: [milk.values[0]] },
      ],
    ]);
    // The medium size is on the side before only, the large one and the milk on the side after only.
    expect(update!.names).toEqual({
      [size.id]: [
        { locale: 'en', value: 'Size' },
        { locale: 'ar', value: 'المقاس' },
      ],
      [milk.id]: [{ locale: 'en', value: 'Milk kind' }],
      [size.values[0]!]: [
        { locale: 'en', value: 'Small' },
        { locale: 'ar', value: 'صغير' },
      ],
      [size.values[1]!]: [
        { locale: 'en', value: 'Medium' },
        { locale: 'ar', value: 'وسط' },
      ],
      [size.values[2]!]: [
        { locale: 'en', value: 'Large' },
        { locale: 'ar', value: 'كبير' },
      ],
      [milk.values[0]!]: [
        { locale: 'en', value: 'Oat' },
        { locale: 'ar', value: 'شوفان' },
      ],
    });
  });
});

describe('the features outside the engine record their changes', () => {
  it("a member's change, the settings and an invitation", async () => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    const changed = await api(t.app, {
      method: 'PATCH',
      url: `/api/workspaces/users/${member.user.id}?workspaceId=${shop.id}`,
      body: { status: 'inactive' },
      cookie: admin.cookie,
    });
    expect(changed.status).toBe(200);
    expect(await rowsOfRequest(changed.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({
        resource: 'memberships',
        recordId: member.user.id,
        action: 'disable',
        changes: { status: ['active', 'inactive'] },
      }),
    ]);

    const settings = await api(t.app, {
      method: 'PATCH',
      url: `/api/workspaces/settings?workspaceId=${shop.id}`,
      body: { timeZone: 'Asia/Dubai' },
      cookie: admin.cookie,
    });
    expect(settings.status).toBe(200);
    expect(await rowsOfRequest(settings.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({
        resource: 'settings',
        recordId: shop.id,
        action: 'update',
        changes: { timeZone: ['Africa/Cairo', 'Asia/Dubai'] },
      }),
    ]);

    const invited = await api(t.app, {
      method: 'POST',
      url: `/api/workspaces/users/invite?workspaceId=${shop.id}`,
      body: { email: `${unique('new')}@example.com`, roleId: (await createRole(t.db, shop.id, [])).id },
      cookie: admin.cookie,
    });
    expect(invited.status).toBe(201);
    const rows = await rowsOfRequest(invited.headers['x-request-id'] as string);
    expect(rows.map((row) => [row.resource, row.action])).toEqual(
      expect.arrayContaining([
        ['memberships', 'invite'],
        ['invitations', 'create'],
      ]),
    );
    const invitation = rows.find((row) => row.resource === 'invitations')!;
    expect(invitation.changes.tokenHash).toEqual([null, redacted]);
    expect(JSON.stringify(invitation.changes)).not.toMatch(/[0-9a-f]{64}/);
  });
});

describe('sign-in events, per person', () => {
  it('a sign-in, a failure and a sign-out of an account; nothing for an unknown address', async () => {
    const user = await createUser(t.db, { password: strongPassword });
    await login(t.app, user);
    const failed = await api(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: 'Wrong#Password1' },
    });
    expect(failed.status).toBe(401);
    const before = await t.db.select().from(signInEvents);
    const unknown = await api(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: `${unique('nobody')}@example.com`, password: 'Wrong#Password1' },
    });
    expect(unknown.status).toBe(401);
    expect(await t.db.select().from(signInEvents)).toHaveLength(before.length);

    const events = await t.db
      .select()
      .from(signInEvents)
      .where(eq(signInEvents.userId, user.id))
      .orderBy(asc(signInEvents.at));
    expect(events.map((event) => [event.kind, event.success])).toEqual([
      ['sign-in', true],
      ['failure', false],
    ]);
    expect(events[1]!.requestId).toBe(failed.headers['x-request-id']);
  });
});
