import { convertMoney } from '@dukkan/contract';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redacted } from '../src/db/audit-log.ts';
import { type AuditLogRow, auditLog } from '../src/db/schema/index.ts';
import { api, dataOf } from './helpers/api.ts';
import { bilingual, keysOf, productCatalogue, sizes } from './helpers/product-catalogue.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * A write that changes other records as its side effect puts each of them on the log as its own
 * record's change, in the write's transaction, with the write's actor and request: a new
 * variation type's values, a deleted type's values, a removed member's invitation, and the
 * products and exchange rates a new base currency converts. (A brand's delete clearing its customers' brand: audit-log.test.ts.)
 */
let t: TestApp;
useTestApp((app) => {
  t = app;
});

async function shop(name: string) {
  const workspace = await createWorkspace(t.db, name);
  const admin = await addMember(t.db, workspace.id, { isAdmin: true });
  return { workspace, admin, catalogue: productCatalogue(t.app, workspace, admin) };
}

async function rowsOfRequest(workspaceId: string, requestId: string): Promise<AuditLogRow[]> {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.requestId, requestId)))
    .orderBy(asc(auditLog.resource), asc(auditLog.recordId));
}

const requestOf = (response: { headers: Record<string, unknown> }) =>
  response.headers['x-request-id'] as string;

describe("a variation type's values", () => {
  it('are each created on the log with the type, and each deleted with it', async () => {
    const { workspace, admin, catalogue } = await shop('Values');
    const created = await catalogue.call('POST', 'variation-types', {
      code: unique('vt'),
      name: bilingual('Size', 'المقاس'),
      values: sizes.slice(0, 2).map(([en, ar]) => ({ name: bilingual(en, ar) })),
    });
    expect(created.status, created.text).toBe(201);
    const type = dataOf<{ id: string; values: { id: string; code: string }[] }>(created);
    const rows = await rowsOfRequest(workspace.id, requestOf(created));
    expect(rows.map((row) => [row.resource, row.recordId, row.action])).toEqual(
      expect.arrayContaining([
        ['variationTypes', type.id, 'create'],
        ...type.values.map((value) => ['variationValues', value.id, 'create']),
      ]),
    );
    expect(rows).toHaveLength(3);
    const small = rows.find((row) => row.recordId === type.values[0]!.id)!;
    expect(small).toMatchObject({ actorKind: 'member', actorUserId: admin.user.id });
    expect(small.changes).toMatchObject({
      nameEn: [null, 'Small'],
      nameAr: [null, 'صغير'],
      typeId: [null, type.id],
      code: [null, type.values[0]!.code],
    });

    const deleted = await catalogue.call('DELETE', `variation-types/${type.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await rowsOfRequest(workspace.id, requestOf(deleted));
    expect(gone.map((row) => [row.resource, row.recordId, row.action])).toEqual(
      expect.arrayContaining([
        ['variationTypes', type.id, 'delete'],
        ...type.values.map((value) => ['variationValues', value.id, 'delete']),
      ]),
    );
    expect(gone).toHaveLength(3);
    expect(gone.find((row) => row.recordId === type.values[1]!.id)!.changes.nameEn).toEqual(['Medium', null]);
  });
});

describe("a member's removal", () => {
  it('deletes their invitation with their membership, each on the log', async () => {
    const { workspace, admin } = await shop('Invitations');
    const role = await createRole(t.db, workspace.id, []);
    const invited = await api(t.app, {
      method: 'POST',
      url: `/api/workspaces/users/invite?workspaceId=${workspace.id}`,
      body: { email: `${unique('new')}@example.com`, roleId: role.id },
      cookie: admin.cookie,
    });
    expect(invited.status, invited.text).toBe(201);
    const userId = (await rowsOfRequest(workspace.id, requestOf(invited))).find(
      (row) => row.resource === 'invitations',
    )!.recordId;
    const removed = await api(t.app, {
      method: 'DELETE',
      url: `/api/workspaces/users/${userId}?workspaceId=${workspace.id}`,
      cookie: admin.cookie,
    });
    expect(removed.status, removed.text).toBe(200);
    const rows = await rowsOfRequest(workspace.id, requestOf(removed));
    expect(rows.map((row) => [row.resource, row.recordId, row.action])).toEqual([
      ['invitations', userId, 'delete'],
      ['memberships', userId, 'delete'],
    ]);
    expect(rows[0]!.changes.tokenHash).toEqual([redacted, null]);
  });
});

describe('a new base currency', () => {
  it('puts each converted product, with its variants, and each rebased rate on the log', async () => {
    const { workspace, admin, catalogue } = await shop('Converted');
    const rates = dataOf<{ id: string; currency: string }[]>(
      await catalogue.call('POST', 'exchange-rates/bulk', [
        { currency: 'USD', rate: 48.5 },
        { currency: 'EUR', rate: 52 },
      ]),
    );
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const [small, medium, large] = keysOf(size.values);
    const plain = await catalogue.created({ price: 100_00, cost: 61_37 });
    const sized = await catalogue.created({
      price: 0,
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: [
        { key: small, price: 120_00, cost: 40_25 },
        { key: medium, price: 150_05 },
        { key: large, price: 180_00 },
      ],
    });
    const free = await catalogue.created({ price: 0 });

    const changed = await api(t.app, {
      method: 'PATCH',
      url: `/api/workspaces/settings?workspaceId=${workspace.id}`,
      body: { baseCurrency: 'USD' },
      cookie: admin.cookie,
    });
    expect(changed.status, changed.text).toBe(200);
    const rows = await rowsOfRequest(workspace.id, requestOf(changed));
    const usd = (minor: number) => convertMoney(minor, 'EGP', 'USD', 48.5);
    const rowOf = (resource: string, id: string) =>
      rows.find((row) => row.resource === resource && row.recordId === id);

    expect(rowOf('products', plain.id)).toMatchObject({
      action: 'update',
      actorKind: 'member',
      actorUserId: admin.user.id,
      changes: {
        price: [100_00, usd(100_00)],
        cost: [61_37, usd(61_37)],
        priceMin: [100_00, usd(100_00)],
        priceMax: [100_00, usd(100_00)],
      },
    });
    // Its variants as a save records them: by key, the changed fields of each.
    expect(rowOf('products', sized.id)!.changes).toEqual({
      priceMin: [120_00, usd(120_00)],
      priceMax: [180_00, usd(180_00)],
      variants: [
        {
          [small!]: { price: 120_00, cost: 40_25 },
          [medium!]: { price: 150_05 },
          [large!]: { price: 180_00 },
        },
        {
          [small!]: { price: usd(120_00), cost: usd(40_25) },
          [medium!]: { price: usd(150_05) },
          [large!]: { price: usd(180_00) },
        },
      ],
    });
    // A product whose amounts are all zero is unchanged: no row.
    expect(rowOf('products', free.id)).toBeUndefined();

    // The rates: USD, the new base, gone (its row now the old base's), EUR divided by USD's.
    const usdRate = rates.find((rate) => rate.currency === 'USD')!;
    const eurRate = rates.find((rate) => rate.currency === 'EUR')!;
    expect(rowOf('exchangeRates', usdRate.id)!.changes.currency).toEqual(['USD', 'EGP']);
    expect(rowOf('exchangeRates', eurRate.id)!.changes).toMatchObject({ rate: [52, expect.any(Number)] });
    expect(rowOf('settings', workspace.id)!.changes.baseCurrency).toEqual(['EGP', 'USD']);
    expect(rows.every((row) => row.actorUserId === admin.user.id)).toBe(true);
  });
});
