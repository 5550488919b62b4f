import { type ProductRecord, withCheckDigit } from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type ApiResponse, api, dataOf } from './api.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './workspaces.ts';

/** Names in both languages, as the API takes them. */
export const bilingual = (en: string, ar: string) => [
  { locale: 'en', value: en },
  { locale: 'ar', value: ar },
];

/** A variation type with its values, as the products tests use them: ids in the type's order. */
export interface TestVariationType {
  id: string;
  values: string[];
}

/** Calls of one member in one workspace, and the catalogue records products need. */
export function productCatalogue(app: FastifyInstance, workspace: { id: string }, member: TestMember) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    api(app, {
      method,
      url: `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspace.id}`,
      body,
      cookie: member.cookie,
    });

  /** A type and its values (one bulk request); values named `[en, ar]`. */
  async function variationType(
    en: string,
    ar: string,
    values: readonly (readonly [string, string])[],
  ): Promise<TestVariationType> {
    const type = dataOf<{ id: string }>(
      await call('POST', 'variation-types', { code: unique('vt'), name: bilingual(en, ar) }),
    );
    const created = dataOf<{ id: string }[]>(
      await call(
        'POST',
        'variation-values/bulk',
        values.map(([valueEn, valueAr], position) => ({
          code: unique('vv'),
          name: bilingual(valueEn, valueAr),
          typeId: type.id,
          position,
        })),
      ),
    );
    return { id: type.id, values: created.map((value) => value.id) };
  }

  /** A type of `count` values named `<prefix>1`…: enough combinations for the limits. */
  const numberedType = (prefix: string, count: number) =>
    variationType(
      prefix,
      `${prefix} ع`,
      Array.from(
        { length: count },
        (_, index) => [`${prefix}${index + 1}`, `${prefix}${index + 1} ع`] as const,
      ),
    );

  let unitId: string | undefined;
  async function unit(): Promise<string> {
    unitId ??= dataOf<{ id: string }>(
      await call('POST', 'measurement-units', {
        code: unique('u'),
        name: bilingual('Piece', 'قطعة'),
        symbol: 'pc',
      }),
    ).id;
    return unitId;
  }

  /** A product's create input: a fresh code, the shared unit, and the given fields. */
  async function input(fields: Record<string, unknown> = {}) {
    return {
      code: unique('p'),
      name: bilingual('Latte', 'لاتيه'),
      measurementUnitId: await unit(),
      ...fields,
    };
  }

  const create = async (fields: Record<string, unknown> = {}): Promise<ApiResponse> =>
    call('POST', 'products', await input(fields));
  const created = async (fields: Record<string, unknown> = {}) => dataOf<ProductRecord>(await create(fields));
  const update = (id: string, fields: Record<string, unknown>) => call('PATCH', `products/${id}`, fields);
  const get = async (id: string) => dataOf<ProductRecord>(await call('GET', `products/${id}`));
  /** The codes of the products a list query finds (`search=…`, `categoryId=…`). */
  const listCodes = async (query: string) =>
    dataOf<ProductRecord[]>(await call('GET', `products?pageSize=100&${query}`)).map(
      (product) => product.code,
    );

  return { call, variationType, numberedType, unit, input, create, created, update, get, listCodes };
}

/** Every combination key of the types' values, in generated order (the last type turning fastest). */
export function keysOf(...valueLists: readonly (readonly string[])[]): string[] {
  return valueLists.reduce<string[]>(
    (keys, values) => keys.flatMap((key) => values.map((value) => (key ? `${key}-${value}` : value))),
    [''],
  );
}

let barcodeCounter = 0;
/** An EAN-13 with a right check digit that no other call of this test run returns. */
export function uniqueBarcode(): string {
  barcodeCounter += 1;
  const random = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  return withCheckDigit(`2${random}${String(barcodeCounter).padStart(4, '0')}`);
}

/** A variation type's values as the product tests name them, in English and Arabic. */
export const sizes = [
  ['Small', 'صغير'],
  ['Medium', 'وسط'],
  ['Large', 'كبير'],
] as const;

/** A product test file's shop: its app, one workspace, the workspace's admin and their calls. */
interface CatalogueShop {
  t: TestApp;
  shop: { id: string; name: string };
  admin: TestMember;
  catalogue: ReturnType<typeof productCatalogue>;
}

/**
 * Before the file's tests, a test app with the workspace `name` and its admin, handed to `receive`
 * (which may prepare more with it); the app is closed after them.
 */
export function useCatalogueShop(name: string, receive: (given: CatalogueShop) => void | Promise<void>) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp();
    const shop = await createWorkspace(app.db, name);
    const admin = await addMember(app.db, shop.id, { isAdmin: true });
    await receive({ t: app, shop, admin, catalogue: productCatalogue(app.app, shop, admin) });
  });
  afterAll(async () => {
    await app?.close();
  });
}
