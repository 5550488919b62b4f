import { allPermissionTags, type RoleRecord, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, workspaces } from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation, tableCounts } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/** `/api/authority-roles` on the generic resource engine, and the rules of roles-binding.ts. */
let t: TestApp;
let shop: { id: string };
let other: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Role Shop');
  other = await createWorkspace(t.db, 'Other Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const inShop = (path: string, workspaceId = shop.id) =>
  `/api/authority-roles${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspaceId}`;

async function createViaApi(body: unknown, cookie = admin.cookie) {
  return api(t.app, { url: inShop(''), body, cookie });
}

describe('create and get', () => {
  it('201 with the record: trimmed fields, duplicate tags once, no users yet', async () => {
    const response = await createViaApi({
      code: '  cashier ',
      title: ' Cashier ',
      permissions: ['viewProducts', 'addBrands', 'viewProducts'],
    });
    expect(response.status).toBe(201);
    const role = dataOf<RoleRecord>(response);
    expect(role).toEqual({
      id: expect.any(String),
      code: 'cashier',
      title: 'Cashier',
      permissions: ['viewProducts', 'addBrands'],
      usersCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const fetched = dataOf<RoleRecord>(
      await api(t.app, { url: inShop(`/${role.id}`), cookie: admin.cookie }),
    );
    expect(fetched).toEqual(role);
  });

  it('permissions default to none', async () => {
    const role = dataOf<RoleRecord>(await createViaApi({ code: unique('c'), title: 'Empty' }));
    expect(role.permissions).toEqual([]);
  });

  it.each([
    ['a code that is not text', { code: 7, title: 'T' }, 'code', validationCodes.CODE_IS_REQUIRED],
    ['code of 61', { code: 'c'.repeat(61), title: 'T' }, 'code', validationCodes.CODE_TOO_LONG],
    ['missing title', { code: 'x' }, 'title', validationCodes.TITLE_IS_REQUIRED],
    ['title of 61', { code: 'x', title: 't'.repeat(61) }, 'title', validationCodes.TITLE_TOO_LONG],
    [
      'unknown tag',
      { code: 'x', title: 'T', permissions: ['viewEverything'] },
      'permissions.0',
      validationCodes.PERMISSION_IS_INVALID,
    ],
    [
      'no delete for ExchangeRate',
      { code: 'x', title: 'T', permissions: ['deleteExchangeRate'] },
      'permissions.0',
      validationCodes.PERMISSION_IS_INVALID,
    ],
    ['an unknown field', { code: 'x', title: 'T', workspaceId: 'w' }, '', undefined],
  ])('400 VALIDATION: %s', async (_label, body, key, code) => {
    const before = await tableCounts(t.db);
    expectValidation(await createViaApi(body), key, code);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('409 DB with target code when the code is taken in this workspace, but not across workspaces', async () => {
    const code = unique('dup');
    expect((await createViaApi({ code, title: 'First' })).status).toBe(201);
    const duplicate = await createViaApi({ code, title: 'Second' });
    expect(duplicate.status).toBe(409);
    expect(errorOf(duplicate)).toMatchObject({
      code: 'DB',
      target: 'code',
      message: 'This code must be unique',
    });
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    const elsewhere = await api(t.app, {
      url: inShop('', other.id),
      body: { code, title: 'There' },
      cookie: otherAdmin.cookie,
    });
    expect(elsewhere.status).toBe(201);
  });

  it('404 for a missing id, a non-uuid id and an id of another workspace — the same answer', async () => {
    const foreign = await createRole(t.db, other.id, ['viewBrands']);
    const answers = [];
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', foreign.id]) {
      const response = await api(t.app, { url: inShop(`/${id}`), cookie: admin.cookie });
      expect(response.status, id).toBe(404);
      answers.push(errorOf(response));
    }
    expect(answers[2]).toEqual(answers[0]);
  });
});

describe('list', () => {
  let listShop: { id: string };
  let listAdmin: TestMember;
  beforeAll(async () => {
    listShop = await createWorkspace(t.db, 'List Shop');
    listAdmin = await addMember(t.db, listShop.id, { isAdmin: true });
    for (const [code, title] of [
      ['alpha', 'Zeta manager'],
      ['bravo', 'Cashier'],
      ['charlie', 'Baker 50%'],
      ['delta', 'Driver'],
      ['echo', 'Accountant'],
    ]) {
      await createRole(t.db, listShop.id, [], { code, title });
    }
    await createRole(t.db, other.id, [], { code: 'alpha-elsewhere', title: 'Cashier elsewhere' });
  });

  const list = (query: string) =>
    api(t.app, { url: `/api/authority-roles?workspaceId=${listShop.id}${query}`, cookie: listAdmin.cookie });

  it('pages sorted by code by default, with meta.total; only this workspace', async () => {
    const first = await list('&pageSize=2');
    expect(first.json).toMatchObject({ meta: { total: 5, page: 1, pageSize: 2 } });
    expect(dataOf<RoleRecord[]>(first).map((role) => role.code)).toEqual(['alpha', 'bravo']);
    const third = await list('&pageSize=2&page=3');
    expect(dataOf<RoleRecord[]>(third).map((role) => role.code)).toEqual(['echo']);
    const past = await list('&pageSize=2&page=9');
    expect(past.json).toEqual({ data: [], meta: { total: 5, page: 9, pageSize: 2 } });
  });

  it('sorts by title either way, and by users count', async () => {
    expect(dataOf<RoleRecord[]>(await list('&sort=title')).map((role) => role.title)[0]).toBe('Accountant');
    expect(dataOf<RoleRecord[]>(await list('&sort=-title')).map((role) => role.title)[0]).toBe(
      'Zeta manager',
    );
    const held = dataOf<RoleRecord[]>(await list('&sort=code'))[3]!;
    await addMember(t.db, listShop.id, { roleId: held.id });
    const byUsers = dataOf<RoleRecord[]>(await list('&sort=-usersCount'));
    expect(byUsers[0]).toMatchObject({ id: held.id, usersCount: 1 });
  });

  it('searches code and title, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(dataOf<RoleRecord[]>(await list('&search=CASH')).map((role) => role.code)).toEqual(['bravo']);
    expect(dataOf<RoleRecord[]>(await list('&search=ech')).map((role) => role.code)).toEqual(['echo']);
    expect(dataOf<RoleRecord[]>(await list('&search=50%25')).map((role) => role.code)).toEqual(['charlie']);
    expect(dataOf<RoleRecord[]>(await list('&search=%25')).map((role) => role.code)).toEqual(['charlie']);
    expect(dataOf<RoleRecord[]>(await list('&search=_')).map((role) => role.code)).toEqual([]);
  });

  it.each([
    ['pageSize over 100', '&pageSize=101', 'pageSize'],
    ['page 0', '&page=0', 'page'],
    ['unknown sort', '&sort=permissions', 'sort'],
    ['unknown parameter', '&colour=red', ''],
  ])('400 VALIDATION: %s', async (_label, query, key) => {
    expectValidation(await list(query), key);
  });

  it('filters: none declared for roles', async () => {
    expect(
      dataOf(
        await api(t.app, {
          url: `/api/authority-roles/filters?workspaceId=${listShop.id}`,
          cookie: listAdmin.cookie,
        }),
      ),
    ).toEqual({});
  });
});

describe('bulk', () => {
  it('creates every row in one go, in order', async () => {
    const codes = [unique('b'), unique('b')];
    const response = await api(t.app, {
      url: inShop('/bulk'),
      body: codes.map((code) => ({ code, title: `Bulk ${code}` })),
      cookie: admin.cookie,
    });
    expect(response.status).toBe(201);
    expect(dataOf<RoleRecord[]>(response).map((role) => role.code)).toEqual(codes);
  });

  it('all or nothing: one duplicate or one invalid row writes no row', async () => {
    const taken = unique('taken');
    await createRole(t.db, shop.id, [], { code: taken });
    const before = await tableCounts(t.db);
    const duplicate = await api(t.app, {
      url: inShop('/bulk'),
      body: [
        { code: unique('ok'), title: 'Fine' },
        { code: taken, title: 'Taken' },
      ],
      cookie: admin.cookie,
    });
    expect(errorOf(duplicate)).toMatchObject({ code: 'DB', target: 'code' });
    const invalid = await api(t.app, {
      url: inShop('/bulk'),
      body: [
        { code: unique('ok'), title: 'Fine' },
        { code: 'c'.repeat(61), title: 'Bad' },
      ],
      cookie: admin.cookie,
    });
    expectValidation(invalid, '1.code', validationCodes.CODE_TOO_LONG);
    expectValidation(await api(t.app, { url: inShop('/bulk'), body: [], cookie: admin.cookie }), '');
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('patch', () => {
  it('changes only the fields it names: a new title keeps the permissions', async () => {
    const role = await createRole(t.db, shop.id, ['viewBrands', 'addBrands']);
    const response = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${role.id}`),
      body: { title: 'Renamed' },
      cookie: admin.cookie,
    });
    expect(dataOf<RoleRecord>(response)).toMatchObject({
      title: 'Renamed',
      code: role.code,
      permissions: ['viewBrands', 'addBrands'],
    });
    const emptied = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${role.id}`),
      body: { permissions: [] },
      cookie: admin.cookie,
    });
    expect(dataOf<RoleRecord>(emptied)).toMatchObject({ title: 'Renamed', permissions: [] });
  });

  it('404 for another workspace’s role, which stays as it was', async () => {
    const foreign = await createRole(t.db, other.id, ['viewBrands']);
    const response = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${foreign.id}`),
      body: { title: 'Hijacked' },
      cookie: admin.cookie,
    });
    expect(response.status).toBe(404);
    const [row] = await t.db.select().from(roles).where(eq(roles.id, foreign.id));
    expect(row!.title).not.toBe('Hijacked');
  });

  it('400 for a bad field, 409 for a taken code', async () => {
    const role = await createRole(t.db, shop.id);
    const taken = await createRole(t.db, shop.id);
    expectValidation(
      await api(t.app, {
        method: 'PATCH',
        url: inShop(`/${role.id}`),
        body: { title: '' },
        cookie: admin.cookie,
      }),
      'title',
      validationCodes.TITLE_IS_REQUIRED,
    );
    const duplicate = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${role.id}`),
      body: { code: taken.code },
      cookie: admin.cookie,
    });
    expect(errorOf(duplicate)).toMatchObject({
      code: 'DB',
      target: 'code',
      message: 'This code must be unique',
    });
  });
});

describe('no escalation: a non-admin cannot grant a tag they do not hold', () => {
  let editor: TestMember;
  beforeAll(async () => {
    editor = await addMember(t.db, shop.id, {
      tags: ['viewAuthority', 'addAuthority', 'editAuthority', 'deleteAuthority', 'viewProducts'],
    });
  });

  it('create: tags they hold pass, any other tag is 403 and nothing is written', async () => {
    expect(
      (await createViaApi({ code: unique('r'), title: 'Ok', permissions: ['viewProducts'] }, editor.cookie))
        .status,
    ).toBe(201);
    const before = await tableCounts(t.db);
    const escalation = await createViaApi(
      { code: unique('r'), title: 'Boss', permissions: ['viewProducts', 'deleteUsers'] },
      editor.cookie,
    );
    expect(escalation.status).toBe(403);
    expect(errorOf(escalation).message).toContain('deleteUsers');
    const bulk = await api(t.app, {
      url: inShop('/bulk'),
      body: [
        { code: unique('r'), title: 'Fine' },
        { code: unique('r'), title: 'Boss', permissions: allPermissionTags },
      ],
      cookie: editor.cookie,
    });
    expect(bulk.status).toBe(403);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('patch: adding a tag they lack is 403; a role within their tags can be edited and narrowed', async () => {
    const clerk = await createRole(t.db, shop.id, ['viewProducts', 'viewAuthority']);
    const adding = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${clerk.id}`),
      body: { permissions: ['viewProducts', 'editTaxes'] },
      cookie: editor.cookie,
    });
    expect(adding.status).toBe(403);
    expect(errorOf(adding).message).toContain('editTaxes');
    const narrowed = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${clerk.id}`),
      body: { title: 'Clerk', permissions: ['viewProducts'] },
      cookie: editor.cookie,
    });
    expect(dataOf<RoleRecord>(narrowed)).toMatchObject({ title: 'Clerk', permissions: ['viewProducts'] });
  });

  it(`a role holding tags they lack (every one of the ${allPermissionTags.length}) cannot be stripped, renamed or deleted`, async () => {
    const owner = await createRole(t.db, shop.id, allPermissionTags);
    for (const body of [{ permissions: ['viewProducts'] }, { permissions: [] }, { title: 'Owner' }]) {
      const response = await api(t.app, {
        method: 'PATCH',
        url: inShop(`/${owner.id}`),
        body,
        cookie: editor.cookie,
      });
      expect(response.status, JSON.stringify(body)).toBe(403);
      expect(errorOf(response)).toMatchObject({ code: 'FORBIDDEN' });
    }
    const deleting = await api(t.app, {
      method: 'DELETE',
      url: inShop(`/${owner.id}`),
      cookie: editor.cookie,
    });
    expect(deleting.status).toBe(403);
    const [stored] = await t.db.select().from(roles).where(eq(roles.id, owner.id));
    expect(stored!.permissions).toHaveLength(allPermissionTags.length);
    expect(stored!.title).not.toBe('Owner');
  });

  it('an admin may strip and delete any role', async () => {
    const owner = await createRole(t.db, shop.id, allPermissionTags);
    const stripped = await api(t.app, {
      method: 'PATCH',
      url: inShop(`/${owner.id}`),
      body: { permissions: ['viewProducts'] },
      cookie: admin.cookie,
    });
    expect(dataOf<RoleRecord>(stripped).permissions).toEqual(['viewProducts']);
    const deleted = await api(t.app, { method: 'DELETE', url: inShop(`/${owner.id}`), cookie: admin.cookie });
    expect(deleted.status).toBe(200);
  });

  it('an admin grants anything', async () => {
    const response = await createViaApi(
      { code: unique('all'), title: 'All', permissions: allPermissionTags },
      admin.cookie,
    );
    expect(dataOf<RoleRecord>(response).permissions).toHaveLength(allPermissionTags.length);
  });
});

describe('delete', () => {
  it('deletes an unheld role: then 404', async () => {
    const role = await createRole(t.db, shop.id);
    const response = await api(t.app, { method: 'DELETE', url: inShop(`/${role.id}`), cookie: admin.cookie });
    expect(response.json).toEqual({ data: { id: role.id } });
    expect((await api(t.app, { url: inShop(`/${role.id}`), cookie: admin.cookie })).status).toBe(404);
  });

  it('400 ROLE_IN_USE while a member (active, inactive or invited) holds it', async () => {
    for (const status of ['active', 'inactive', 'invited'] as const) {
      const role = await createRole(t.db, shop.id);
      await addMember(t.db, shop.id, { roleId: role.id, status });
      const response = await api(t.app, {
        method: 'DELETE',
        url: inShop(`/${role.id}`),
        cookie: admin.cookie,
      });
      expectValidation(response, 'id', validationCodes.ROLE_IN_USE);
      expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toHaveLength(1);
    }
  });

  it('404 for another workspace’s role, which survives', async () => {
    const foreign = await createRole(t.db, other.id);
    expect(
      (await api(t.app, { method: 'DELETE', url: inShop(`/${foreign.id}`), cookie: admin.cookie })).status,
    ).toBe(404);
    expect(await t.db.select().from(roles).where(eq(roles.id, foreign.id))).toHaveLength(1);
  });

  it('deleting a workspace takes its roles and memberships with it', async () => {
    const doomed = await createWorkspace(t.db);
    const role = await createRole(t.db, doomed.id, ['viewBrands']);
    await addMember(t.db, doomed.id, { roleId: role.id });
    await t.db.delete(workspaces).where(eq(workspaces.id, doomed.id));
    expect(await t.db.select().from(roles).where(eq(roles.workspaceId, doomed.id))).toEqual([]);
  });
});
