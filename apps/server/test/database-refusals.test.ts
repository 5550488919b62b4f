import { type ProductRecord, validationCodes } from '@dukkan/contract';
import { type SQL, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '../src/http/errors.ts';
import { api, dataOf, errorOf, expectNoLeak } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A value the database will not store is the request's mistake, whatever let it through: the
 * error handler answers PostgreSQL's data exceptions (SQLSTATE class 22) and check violations
 * with 400 VALIDATION and a translated code, never 500, never the statement. Shown with the
 * database's own errors (PGlite, or PostgreSQL with DATABASE_URL), then over the app's HTTP.
 */
let t: TestApp;
let probe: FastifyInstance;

/** Each statement fails with the SQLSTATE named, on both drivers. */
const failing: { name: string; state: string; code: string; statement: SQL }[] = [
  {
    name: 'a number beyond numeric(18,6)',
    state: '22003',
    code: validationCodes.VALUE_OUT_OF_RANGE,
    statement: sql`select ${1e12}::numeric(18,6)`,
  },
  {
    name: 'a quantity rounding to 0 under a check > 0',
    state: '23514',
    code: validationCodes.VALUE_CANNOT_BE_STORED,
    statement: sql`insert into refusal_probe (quantity) values (${0.0000001})`,
  },
  {
    name: 'a text longer than its varchar',
    state: '22001',
    code: validationCodes.VALUE_CANNOT_BE_STORED,
    statement: sql`insert into refusal_probe (quantity, label) values (1, ${'three'})`,
  },
  {
    name: 'a malformed uuid',
    state: '22P02',
    code: validationCodes.VALUE_CANNOT_BE_STORED,
    statement: sql`select ${'not-a-uuid'}::uuid`,
  },
  {
    name: 'a malformed date',
    state: '22007',
    code: validationCodes.VALUE_CANNOT_BE_STORED,
    statement: sql`select ${'someday'}::date`,
  },
  {
    name: 'a date out of range',
    state: '22008',
    code: validationCodes.VALUE_CANNOT_BE_STORED,
    statement: sql`select ${'2024-13-45'}::date`,
  },
];

/** The statement's failure, run in a transaction with the probe's table (on PostgreSQL a temporary table is one connection's). */
async function failureOf(statement: SQL): Promise<unknown> {
  try {
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table refusal_probe (
        quantity numeric(18, 6) not null check (quantity > 0),
        label varchar(2)
      ) on commit drop`);
      await tx.execute(statement);
    });
  } catch (error) {
    return error;
  }
  throw new Error('The statement did not fail');
}

beforeAll(async () => {
  t = await createTestApp();
  probe = Fastify();
  probe.setErrorHandler(handleError);
  probe.get('/probe/missing-table', async () => {
    throw await failureOf(sql`select * from no_such_table`);
  });
  probe.get('/probe/division-by-zero', async () => {
    throw await failureOf(sql`select 1 / (select count(*) from refusal_probe)`);
  });
  probe.get<{ Params: { index: string } }>('/probe/:index', async (request) => {
    throw await failureOf(failing[Number(request.params.index)]!.statement);
  });
  await probe.ready();
});
afterAll(async () => {
  await probe?.close();
  await t?.close();
});

describe('the error handler, given the database refusing a value', () => {
  it.each(failing.map((entry, index) => ({ ...entry, index })))(
    '$name ($state): 400 VALIDATION with $code, no SQL in the answer',
    async ({ index, state, code }) => {
      const cause = (await failureOf(failing[index]!.statement)) as { cause?: { code?: string } };
      expect(cause.cause?.code ?? (cause as { code?: string }).code).toBe(state);

      const response = await api(probe, { method: 'GET', url: `/probe/${index}` });
      expect(response.status, response.text).toBe(400);
      expect(errorOf(response)).toEqual({
        statusCode: 400,
        code: 'VALIDATION',
        name: 'ValidationError',
        message: expect.any(String),
        key: '',
        issues: [{ path: '', message: code }],
      });
      expectNoLeak(response.text);
      expect(response.text).not.toMatch(/numeric|refusal_probe|uuid|varchar|::/);
    },
  );

  it("an error of the server's own statement (42P01, no such table) stays a 500", async () => {
    const response = await api(probe, { method: 'GET', url: '/probe/missing-table' });
    expect(response.status, response.text).toBe(500);
    expect(errorOf(response).code).toBe('INTERNAL');
    expectNoLeak(response.text);
  });

  it("a division by zero (22012, a data exception of the server's own arithmetic) stays a 500", async () => {
    const response = await api(probe, { method: 'GET', url: '/probe/division-by-zero' });
    expect(response.status, response.text).toBe(500);
    expect(errorOf(response).code).toBe('INTERNAL');
  });
});

describe('a recipe quantity its column cannot keep, over HTTP', () => {
  let shop: { id: string; admin: TestMember };
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
    api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: shop.admin.cookie });

  beforeAll(async () => {
    const { id } = await createWorkspace(t.db, 'Quantity Shop');
    shop = { id, admin: await addMember(t.db, id, { isAdmin: true }) };
  });

  const product = async (unitId: string, en: string) =>
    dataOf<ProductRecord>(
      await call('POST', 'products', {
        code: unique('p'),
        name: [{ locale: 'en', value: en }],
        measurementUnitId: unitId,
      }),
    );

  it.each([1e12, 0.0000001])('%s: 400 VALIDATION, the recipe unchanged', async (quantity) => {
    const unit = dataOf<{ id: string }>(
      await call('POST', 'measurement-units', {
        code: unique('u'),
        name: [{ locale: 'en', value: 'Gram' }],
        symbol: 'g',
      }),
    );
    const salt = await product(unit.id, 'Salt');
    const soup = await product(unit.id, 'Soup');
    const response = await call('PATCH', `products/${soup.id}`, {
      recipe: [{ ingredientProductId: salt.id, quantity }],
    });
    expect(response.status, response.text).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION');
    expect(dataOf<ProductRecord>(await call('GET', `products/${soup.id}`)).recipe).toEqual([]);
  });
});
