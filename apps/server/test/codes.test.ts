import { brandsResource, normalizeCode, type ResourceDefinition, validationCodes } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands, codeCounters, measurementUnits, productVariants } from '../src/db/schema/index.ts';
import { seedDemoCatalogue } from '../src/features/catalogue/demo-catalogue.ts';
import { addStarterUnits } from '../src/features/workspaces/starter-set.ts';
import {
  checkStoredCodesOnce,
  describeCodeCollisions,
  findCodeCollisions,
  storedCodeColumns,
  visibleCode,
} from '../src/resource-engine/code-collisions.ts';
import { createResourceEngine } from '../src/resource-engine/registry.ts';
import { systemCaller } from '../src/resource-engine/storage.ts';
import { createAppResources } from '../src/resources.ts';
import { api, dataOf, errorOf, expectValidation } from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import { firstLockWait } from './helpers/lock-wait.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * Codes (issue 29): a code left empty is the next free one of the resource's sequence in the
 * workspace (`BR-0001`…), codes typed in any Unicode form of one code are one code, and the codes
 * stored before the rule that collide under it are reported, never merged. The engine's test
 * (`resource-engine.test.ts`) runs the sequence of every resource with a prefix; this file goes
 * deeper with brands.
 */
let t: TestApp;
const engine = createAppResources();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A workspace with an admin, and calls of its brands. */
async function shop() {
  const workspace = await createWorkspace(t.db, unique('Codes '));
  const admin: TestMember = await addMember(t.db, workspace.id, { isAdmin: true });
  const url = (path = '') => `/api/brands${path}?workspaceId=${workspace.id}`;
  const brand = (code?: string) => ({
    ...(code === undefined ? {} : { code }),
    name: [{ locale: 'en', value: unique('Brand ') }],
  });
  const create = (code?: string) => api(t.app, { url: url(), body: brand(code), cookie: admin.cookie });
  const created = async (code?: string) => dataOf<{ id: string; code: string }>(await create(code));
  const bulk = (codes: (string | undefined)[]) =>
    api(t.app, { url: url('/bulk'), body: codes.map(brand), cookie: admin.cookie });
  const patch = (id: string, body: Record<string, unknown>) =>
    api(t.app, { method: 'PATCH', url: url(`/${id}`), body, cookie: admin.cookie });
  return { workspace, admin, url, brand, create, created, bulk, patch };
}

const codesOf = (response: { json: unknown }) =>
  (response.json as { data: { code: string }[] }).data.map((row) => row.code);

describe('the sequence', () => {
  it('gives BR-0001, BR-0002… to brands created without a code, empty or blank', async () => {
    const { created } = await shop();
    expect((await created()).code).toBe('BR-0001');
    expect((await created('')).code).toBe('BR-0002');
    expect((await created(' \u200b\u00a0')).code).toBe('BR-0003');
  });

  it('skips codes already taken: typed by hand, or the demo customers C-0001…C-0003', async () => {
    const { workspace, created } = await shop();
    expect((await created('BR-0002')).code).toBe('BR-0002');
    expect((await created('\uff22\uff32-0003')).code).toBe('BR-0003');
    expect((await created()).code).toBe('BR-0001');
    expect((await created()).code).toBe('BR-0004');

    await seedDemoCatalogue(t.db, engine, workspace.id, await addStarterUnits(t.db, engine, workspace.id));
    const [customer] = await engine
      .data('customers')
      .create(t.db, systemCaller(workspace.id), [
        { name: 'Nadia Fathy', phones: ['01001112222'], source: 'walkIn', brandId: null },
      ]);
    expect(customer!.code).toBe('C-0004');
  });

  it('is per workspace: another workspace neither advances nor blocks it', async () => {
    const first = await shop();
    const second = await shop();
    expect((await first.created()).code).toBe('BR-0001');
    expect((await first.created()).code).toBe('BR-0002');
    expect((await second.created('BR-0003')).code).toBe('BR-0003');
    expect((await second.created()).code).toBe('BR-0001');
    expect((await first.created()).code).toBe('BR-0003');
    expect((await second.created()).code).toBe('BR-0002');
  });

  it("gives a bulk's rows consecutive codes, around the codes the bulk types itself", async () => {
    const { bulk, created } = await shop();
    const first = await bulk([undefined, '', 'BR-0003', undefined, 'OWN']);
    expect(first.status, first.text).toBe(201);
    expect(codesOf(first)).toEqual(['BR-0001', 'BR-0002', 'BR-0003', 'BR-0004', 'OWN']);
    expect((await created()).code).toBe('BR-0005');
  });

  it('a write that fails gives its numbers back', async () => {
    const { bulk, created } = await shop();
    await created('TAKEN');
    const refused = await bulk([undefined, undefined, 'TAKEN']);
    expect(refused.status, refused.text).toBe(409);
    expect((await created()).code).toBe('BR-0001');
  });

  it('grows past four digits', async () => {
    const { workspace, created } = await shop();
    await t.db
      .insert(codeCounters)
      .values({ workspaceId: workspace.id, resource: 'brands', lastNumber: 9_998 });
    expect((await created()).code).toBe('BR-9999');
    expect((await created()).code).toBe('BR-10000');
  });

  it('a generated code can be edited like a typed one; emptied, the next is assigned', async () => {
    const { created, patch } = await shop();
    const brand = await created();
    expect(brand.code).toBe('BR-0001');
    expect(dataOf<{ code: string }>(await patch(brand.id, { code: 'NILE' })).code).toBe('NILE');
    expect(dataOf<{ code: string }>(await patch(brand.id, { code: '\u200b' })).code).toBe('BR-0002');
    expect((await created()).code).toBe('BR-0003');
  });

  it('the engine assigns only a code still empty after the hook; without a prefix, none', async () => {
    const { workspace } = await shop();
    const hooked = (key: string, codePrefix: string | undefined, code: string | undefined) => ({
      definition: { ...brandsResource, key, codePrefix } as ResourceDefinition,
      customization: {
        key,
        table: brands,
        computed: { locationsCount: sql<number>`0` },
        hooks: {
          beforeWrite(_context: unknown, input: Record<string, unknown>) {
            if (code !== undefined && !input.code) input.code = code;
          },
        },
      },
    });
    const setups = [
      hooked('withPrefixAndHook', 'BR', 'FROM-HOOK'),
      hooked('withoutPrefix', undefined, undefined),
      hooked('withoutPrefixWithHook', undefined, 'HOOKED'),
    ];
    const custom = createResourceEngine(
      setups.map((setup) => setup.customization),
      { registry: setups.map((setup) => setup.definition) },
    );
    const caller = systemCaller(workspace.id);
    const input = () => ({ name: [{ locale: 'en', value: unique('Brand ') }], currencies: [] });
    const [fromHook] = await custom.data('withPrefixAndHook' as never).create(t.db, caller, [input()]);
    expect(fromHook!.code).toBe('FROM-HOOK');
    // The hook's code took nothing from the sequence.
    const counters = await t.db.select().from(codeCounters).where(eq(codeCounters.workspaceId, workspace.id));
    expect(counters.filter((counter) => counter.lastNumber > 0)).toEqual([]);
    await expect(
      custom.data('withoutPrefix' as never).create(t.db, caller, [{ ...input(), code: '' }]),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { issues: [{ path: 'code', message: validationCodes.CODE_IS_REQUIRED }] },
    });
    await expect(
      custom.data('withoutPrefix' as never).create(t.db, caller, [input(), input()], true),
    ).rejects.toMatchObject({
      details: { issues: [{ path: '0.code', message: validationCodes.CODE_IS_REQUIRED }] },
    });
    const [hooked2] = await custom.data('withoutPrefixWithHook' as never).create(t.db, caller, [input()]);
    expect(hooked2!.code).toBe('HOOKED');
  });
});

describe('typed codes', () => {
  // Each pair looks the same to a merchant: one code.
  const twins: [string, string, string][] = [
    ['an accent typed apart', 'CAF\u00c9', 'CAFE\u0301'],
    ['full-width letters', 'ABC', '\uff21\uff22\uff23'],
    ['a zero-width space', 'ZW', 'Z\u200bW'],
    ['a word joiner and a byte order mark', 'WJ', '\ufeffW\u2060J'],
    ['bidi marks', 'RTL-1', '\u200fRTL-1\u200e\u061c'],
    ['a no-break space at the end', 'NB', 'NB\u00a0'],
  ];

  it.each(twins)(
    '%s: the second is refused as not unique (409), and stored normalized',
    async (_, first, second) => {
      const { create, created } = await shop();
      expect((await created(second)).code).toBe(normalizeCode(second));
      const again = await create(first);
      expect(again.status, again.text).toBe(409);
      expect(errorOf(again)).toMatchObject({
        code: 'DB',
        target: 'code',
        message: 'This code must be unique',
      });
    },
  );

  it.each(twins)(
    '%s: in one bulk, CODE_MUST_BE_UNIQUE at the second row, nothing written',
    async (_, first, second) => {
      const { bulk, created } = await shop();
      expectValidation(await bulk([first, second]), '1.code', validationCodes.CODE_MUST_BE_UNIQUE);
      expect((await created()).code).toBe('BR-0001');
    },
  );

  it('case is kept and tells codes apart: abc and ABC are two codes', async () => {
    const { created } = await shop();
    expect((await created('abc')).code).toBe('abc');
    expect((await created('ABC')).code).toBe('ABC');
  });

  it('a typed code still has at most 60 characters, counted once normalized', async () => {
    const { create, created } = await shop();
    expectValidation(await create('x'.repeat(61)), 'code', validationCodes.CODE_TOO_LONG);
    expect((await created(`${'y'.repeat(60)}\u200b\u200b `)).code).toBe('y'.repeat(60));
  });

  it('SKUs and barcodes are normalized alike', async () => {
    const { workspace, admin } = await shop();
    const caller = systemCaller(workspace.id);
    const [unit] = await engine
      .data('measurementUnits')
      .create(t.db, caller, [{ name: [{ locale: 'en', value: 'Piece' }], symbol: 'pc' }]);
    const [type] = await engine
      .data('variationTypes')
      .create(t.db, caller, [{ name: [{ locale: 'en', value: 'Size' }] }]);
    const values: string[] = [];
    for (const [position, name] of ['Small', 'Large'].entries()) {
      const [value] = await engine
        .data('variationValues')
        .create(t.db, caller, [
          { code: unique('v'), name: [{ locale: 'en', value: name }], typeId: type!.id, position },
        ]);
      values.push(value!.id as string);
    }
    /** Saves a Tea product with these variants. */
    const saveTea = (variants: { key: string | undefined; sku: string; barcode?: string }[]) =>
      api(t.app, {
        url: `/api/products?workspaceId=${workspace.id}`,
        body: {
          name: [{ locale: 'en', value: 'Tea' }],
          measurementUnitId: unit!.id,
          options: [{ typeId: type!.id, valueIds: values }],
          variants,
        },
        cookie: admin.cookie,
      });
    /** TEA-1 and a barcode in full-width forms, with invisible marks around them. */
    const wideSku = { sku: '\uff34\uff25\uff21-1\u200b', barcode: '\u200e\uff14006381333931' };
    const saved = await saveTea([
      { key: values[0], ...wideSku },
      { key: values[1], sku: 'TEA-1' },
    ]);
    // One SKU in two forms: both rows name it.
    expect(errorOf(saved).issues).toEqual([
      { path: 'variants.0.sku', message: validationCodes.SKU_MUST_BE_UNIQUE },
      { path: 'variants.1.sku', message: validationCodes.SKU_MUST_BE_UNIQUE },
    ]);
    const product = await saveTea([{ key: values[0], ...wideSku }]);
    expect(product.status, product.text).toBe(201);
    expect(dataOf<{ code: string }>(product).code).toBe('PRD-0001');
    const [variant] = await t.db
      .select({ sku: productVariants.sku, barcode: productVariants.barcode })
      .from(productVariants)
      .where(and(eq(productVariants.workspaceId, workspace.id), eq(productVariants.key, values[0]!)));
    expect(variant).toEqual({ sku: 'TEA-1', barcode: '4006381333931' });
  });
});

describe('codes stored before the rule', () => {
  it('are listed per workspace where they collide under it, and nothing is changed', async () => {
    const { workspace } = await shop();
    const other = await shop();
    const raw = (workspaceId: string, codes: string[]) =>
      t.db
        .insert(measurementUnits)
        .values(codes.map((code) => ({ workspaceId, code, nameEn: unique('Unit '), symbol: 'u' })));
    await raw(workspace.id, ['KG', 'K\u200bG', '\uff2b\uff27', 'G', 'L\u00a0', '\u200b']);
    await raw(other.workspace.id, ['KG', 'LONE\u200b']);
    const collisions = (await findCodeCollisions(t.db, storedCodeColumns(engine))).filter((collision) =>
      [workspace.id, other.workspace.id].includes(collision.workspaceId),
    );
    expect(collisions).toEqual([
      {
        workspaceId: workspace.id,
        workspaceName: workspace.name,
        codes: 'measurementUnits',
        stored: expect.arrayContaining(['\u200b']),
        normalized: '',
      },
      {
        workspaceId: workspace.id,
        workspaceName: workspace.name,
        codes: 'measurementUnits',
        stored: expect.arrayContaining(['KG', 'K\u200bG', '\uff2b\uff27']),
        normalized: 'KG',
      },
    ]);
    expect(collisions[1]!.stored).toHaveLength(3);
    expect(describeCodeCollisions(collisions)).toEqual([
      `Workspace "${workspace.name}" (${workspace.id}):`,
      '  measurementUnits: "\\u{200b}" → no code at all',
      `  measurementUnits: ${collisions[1]!.stored.map(visibleCode).join(', ')} → "KG"`,
    ]);
    expect(visibleCode('K\u200bG')).toBe('"K\\u{200b}G"');
    expect(visibleCode('CAFE\u0301')).toBe('"CAFE\\u{301}"');
    expect(visibleCode('\uff2bG ')).toBe('"\\u{ff2b}G "');
  });

  it('the first start after the migration lists them once; later starts leave it to check-codes', async () => {
    const first = await checkStoredCodesOnce(t.db, engine, new Date());
    expect(first?.map((collision) => collision.normalized)).toEqual(expect.arrayContaining(['', 'KG']));
    expect(await checkStoredCodesOnce(t.db, engine, new Date())).toBeUndefined();
  });

  it('check-codes prints them, or says there are none', async () => {
    const run = await runCliOn(t, ['check-codes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('measurementUnits: ');
    expect(run.stdout).toMatch(/\d+ groups? of codes/);
  });
});

// Two connections are needed for two writes at once; PGlite has one, so its writes never overlap.
describe.runIf(process.env.DATABASE_URL)('at once (PostgreSQL only)', () => {
  it('many creates and bulks without codes at once: every code once, 1 to the last, no error', async () => {
    const { created, create, bulk } = await shop();
    const answers = await Promise.all([
      ...Array.from({ length: 24 }, () => create()),
      ...Array.from({ length: 6 }, () => bulk([undefined, '', undefined, undefined, ''])),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const codes = answers.flatMap((answer) =>
      Array.isArray((answer.json as { data: unknown }).data)
        ? codesOf(answer)
        : [(answer.json as { data: { code: string } }).data.code],
    );
    expect(codes.sort()).toEqual(
      Array.from({ length: 54 }, (_, index) => `BR-${String(index + 1).padStart(4, '0')}`),
    );
    // Each bulk's codes are consecutive: it held the sequence for all its rows.
    for (const answer of answers.filter((one) => Array.isArray((one.json as { data: unknown }).data))) {
      const numbers = codesOf(answer).map((code) => Number(code.slice(3)));
      expect(numbers).toEqual(numbers.map((_, index) => numbers[0]! + index));
    }
    expect((await created()).code).toBe('BR-0055');
  });

  it('codes of the sequence typed at the same time: a generated code never collides', async () => {
    const { create } = await shop();
    const typed = Array.from({ length: 12 }, (_, index) => `BR-${String(index + 1).padStart(4, '0')}`);
    const answers = await Promise.all(typed.flatMap((code) => [create(code), create()]));
    for (const [index, answer] of answers.entries()) {
      // A typed code may lose to a generated one (409); a generated code is never refused.
      expect(index % 2 === 0 ? [201, 409] : [201], answer.text).toContain(answer.status);
    }
    const codes = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => dataOf<{ code: string }>(answer).code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('a second create waits for the sequence while the first is not committed', async () => {
    const { workspace, created } = await shop();
    expect((await created()).code).toBe('BR-0001');
    const { second, waitedFor } = await t.db.transaction(async (tx) => {
      await engine
        .data('brands')
        .create(tx, systemCaller(workspace.id), [
          { name: [{ locale: 'en', value: 'First' }], currencies: [] },
        ]);
      const second = created();
      return { second, waitedFor: await firstLockWait(t.db, second) };
    });
    // The counter row's lock (a row lock waits on its holder's transaction id). Without it the
    // second would pick BR-0002 too and meet the unique index: 409 for a code nobody typed.
    expect(waitedFor).toBe('transactionid');
    expect((await second).code).toBe('BR-0003');
  });
});
