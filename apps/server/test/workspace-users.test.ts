import { allPermissionTags, validationCodes, type WorkspaceUserRecord } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invites, memberships, sessions, users } from '../src/db/schema/index.ts';
import { hashToken } from '../src/features/auth/tokens.ts';
import { api, createUser, dataOf, errorOf, expectValidation, login, tableCounts } from './helpers/api.ts';
import { type ApplicationRow, insertApplication, insertSubscription } from './helpers/applications.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import {
  addInvitedMember,
  addMember,
  createRole,
  createWorkspace,
  type TestMember,
  unique,
  workspaceSnapshot,
} from './helpers/workspaces.ts';

/** The Users page's calls (`/api/workspaces/users…`), except accepting (invitations.test.ts). */
let t: TestApp;
let shop: { id: string; name: string };
let other: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Users Shop');
  other = await createWorkspace(t.db, 'Other Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true, name: 'Hala Admin' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.mails.length = 0;
});

const usersUrl = (path = '', workspaceId = shop.id) =>
  `/api/workspaces/users${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspaceId}`;
const patchUser = (userId: string, body: unknown, cookie = admin.cookie, workspaceId = shop.id) =>
  api(t.app, { method: 'PATCH', url: usersUrl(`/${userId}`, workspaceId), body, cookie });
const removeUser = (userId: string, cookie = admin.cookie) =>
  api(t.app, { method: 'DELETE', url: usersUrl(`/${userId}`), cookie });
const invite = (body: unknown, cookie = admin.cookie, workspaceId = shop.id) =>
  api(t.app, { url: usersUrl('/invite', workspaceId), body, cookie });
const inviteLinkPattern = /\/accept-invite\?token=([A-Za-z0-9_-]{20,})/;

describe('list, filters and get', () => {
  let listShop: { id: string };
  let listAdmin: TestMember;
  let cashier: { id: string };
  let baker: { id: string };
  /** The invited member's account is named 'Invitee'; the workspace sees its email's local part. */
  let invitee = '';
  beforeAll(async () => {
    listShop = await createWorkspace(t.db, 'List');
    listAdmin = await addMember(t.db, listShop.id, {
      isAdmin: true,
      name: 'Zaid Owner',
      email: `${unique('zaid')}@owner.example`,
    });
    cashier = await createRole(t.db, listShop.id, ['viewProducts'], { title: 'Cashier' });
    baker = await createRole(t.db, listShop.id, [], { title: 'Baker' });
    await addMember(t.db, listShop.id, {
      roleId: cashier.id,
      name: 'Amal Saleh',
      code: 'EMP-1',
      email: `${unique('amal')}@shop.example`,
    });
    await addMember(t.db, listShop.id, {
      roleId: cashier.id,
      name: 'Basem 100%',
      code: 'EMP-2',
      status: 'inactive',
    });
    await addMember(t.db, listShop.id, { roleId: baker.id, name: 'Camilia', code: 'X_9' });
    invitee = (await addInvitedMember(t.db, listShop.id, { roleId: baker.id })).email.split('@')[0]!;
    // Someone of another workspace with a similar name never shows.
    await addMember(t.db, other.id, { tags: [], name: 'Amal Elsewhere' });
  });
  const list = (query = '') =>
    api(t.app, { url: `/api/workspaces/users?workspaceId=${listShop.id}${query}`, cookie: listAdmin.cookie });
  const names = async (query: string) =>
    dataOf<WorkspaceUserRecord[]>(await list(query)).map((user) => user.name);

  it("lists the workspace's members with the contract's record, sorted by name, with meta", async () => {
    const response = await list();
    expect(response.json).toMatchObject({ meta: { total: 5, page: 1, pageSize: 20 } });
    const records = dataOf<WorkspaceUserRecord[]>(response);
    expect(records.map((user) => user.name)).toEqual([
      'Amal Saleh',
      'Basem 100%',
      'Camilia',
      invitee,
      'Zaid Owner',
    ]);
    expect(records[0]).toEqual({
      id: expect.any(String),
      code: 'EMP-1',
      name: 'Amal Saleh',
      email: expect.stringContaining('@shop.example'),
      phone: null,
      isAdmin: false,
      isLastAdmin: false,
      role: { id: cashier.id, title: 'Cashier' },
      applications: [],
      lastLoginAt: null,
      secondFactor: false,
      status: 'active',
      createdAt: expect.any(String),
    });
    expect(records[4]).toMatchObject({ isAdmin: true, isLastAdmin: true, role: null, code: null });
    expect(records[3]).toMatchObject({ status: 'invited', role: { id: baker.id, title: 'Baker' } });
  });

  it('searches name, email and code (wildcards literal), filters by status and role, sorts', async () => {
    expect(await names('&search=amal')).toEqual(['Amal Saleh']);
    expect(await names('&search=owner.example')).toEqual(['Zaid Owner']);
    expect(await names('&search=emp-')).toEqual(['Amal Saleh', 'Basem 100%']);
    expect(await names('&search=100%25')).toEqual(['Basem 100%']);
    expect(await names('&search=X_')).toEqual(['Camilia']);
    expect(await names('&status=inactive,invited')).toEqual(['Basem 100%', invitee]);
    expect(await names(`&role=${baker.id}`)).toEqual(['Camilia', invitee]);
    expect(await names(`&search=${invitee}`)).toEqual([invitee]);
    expect(await names(`&role=${cashier.id}&status=active`)).toEqual(['Amal Saleh']);
    expect(await names('&sort=-name&pageSize=2')).toEqual(['Zaid Owner', invitee]);
    // Members without a code come last (among themselves in id order).
    const byCode = await names('&sort=code');
    expect(byCode.slice(0, 3)).toEqual(['Amal Saleh', 'Basem 100%', 'Camilia']);
    expect(byCode.slice(3).sort()).toEqual([invitee, 'Zaid Owner'].sort());
    expect((await names('&sort=-code')).slice(0, 3)).toEqual(['Camilia', 'Basem 100%', 'Amal Saleh']);
    const page = await list('&pageSize=2&page=3');
    expect(page.json).toMatchObject({ meta: { total: 5, page: 3, pageSize: 2 } });
    expect(dataOf<WorkspaceUserRecord[]>(page)).toHaveLength(1);
    expect((await list('&search=amal&pageSize=1')).json).toMatchObject({ meta: { total: 1 } });
  });

  it('last login (in this workspace) sorts people who have logged in first', async () => {
    const [amal] = dataOf<WorkspaceUserRecord[]>(await list('&search=amal'));
    await t.db
      .update(memberships)
      .set({ lastSignInAt: new Date('2000-01-01T00:00:00Z') })
      .where(and(eq(memberships.userId, amal!.id), eq(memberships.workspaceId, listShop.id)));
    // Zaid's own session signed in to this workspace with its first request here.
    expect((await names('&sort=-lastLoginAt')).slice(0, 2)).toEqual(['Zaid Owner', 'Amal Saleh']);
    expect((await names('&sort=lastLoginAt')).slice(0, 2)).toEqual(['Amal Saleh', 'Zaid Owner']);
  });

  it("sorts codes and emails in the collation every list uses (ICU's root), not byte order", async () => {
    const codes = async (query: string) =>
      dataOf<WorkspaceUserRecord[]>(await list(query)).flatMap((user) => (user.code ? [user.code] : []));
    const [camilia] = dataOf<WorkspaceUserRecord[]>(await list('&search=camilia'));
    await t.db
      .update(memberships)
      .set({ code: 'EMP_0' })
      .where(and(eq(memberships.userId, camilia!.id), eq(memberships.workspaceId, listShop.id)));
    try {
      // In bytes '_' (0x5F) follows '-' (0x2D); in the collation punctuation '_' comes first.
      expect(await codes('&sort=code')).toEqual(['EMP_0', 'EMP-1', 'EMP-2']);
      expect(await codes('&sort=-code')).toEqual(['EMP-2', 'EMP-1', 'EMP_0']);
      const emails = dataOf<WorkspaceUserRecord[]>(await list('&sort=email')).map((user) => user.email);
      expect(emails).toEqual([...emails].sort(new Intl.Collator('und').compare));
    } finally {
      await t.db
        .update(memberships)
        .set({ code: 'X_9' })
        .where(and(eq(memberships.userId, camilia!.id), eq(memberships.workspaceId, listShop.id)));
    }
  });

  it.each([
    ['pageSize over 100', '&pageSize=101', 'pageSize'],
    ['unknown status', '&status=gone', 'status.0'],
    ['role not a uuid', '&role=cashier', 'role.0'],
    ['unknown sort', '&sort=phone', 'sort'],
    ['unknown parameter', '&isAdmin=true', ''],
  ])('400 VALIDATION: %s', async (_label, query, key) => {
    expectValidation(await list(query), key);
  });

  it('filters: every status and every role of the workspace with their counts and titles', async () => {
    const filters = dataOf(
      await api(t.app, {
        url: `/api/workspaces/users/filters?workspaceId=${listShop.id}`,
        cookie: listAdmin.cookie,
      }),
    );
    expect(filters).toEqual({
      status: [
        { value: 'active', count: 3 },
        { value: 'inactive', count: 1 },
        { value: 'invited', count: 1 },
      ],
      role: [
        { value: baker.id, label: 'Baker', count: 2 },
        { value: cashier.id, label: 'Cashier', count: 2 },
      ],
    });
  });

  it('get: one member; 404 for a non-member, another workspace’s member, a non-uuid', async () => {
    const [amal] = dataOf<WorkspaceUserRecord[]>(await list('&search=amal'));
    const one = await api(t.app, {
      url: `/api/workspaces/users/${amal!.id}?workspaceId=${listShop.id}`,
      cookie: listAdmin.cookie,
    });
    expect(dataOf(one)).toEqual(amal);
    const elsewhere = await addMember(t.db, other.id, { tags: [] });
    for (const id of [elsewhere.user.id, (await createUser(t.db)).id, 'amal']) {
      const response = await api(t.app, {
        url: `/api/workspaces/users/${id}?workspaceId=${listShop.id}`,
        cookie: listAdmin.cookie,
      });
      expect(response.status, id).toBe(404);
    }
  });
});

describe('patch', () => {
  it('changes role, status and code; only the named fields (applications: see "member applications")', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewProducts'], code: 'OLD' });
    const role = await createRole(t.db, shop.id, ['viewBrands'], { title: 'Brand viewer' });
    const response = await patchUser(member.user.id, { roleId: role.id });
    expect(dataOf<WorkspaceUserRecord>(response)).toMatchObject({
      role: { id: role.id, title: 'Brand viewer' },
      applications: [],
      code: 'OLD',
      status: 'active',
    });
    expect(dataOf<WorkspaceUserRecord>(await patchUser(member.user.id, { code: ' NEW-7 ' })).code).toBe(
      'NEW-7',
    );
    expect(dataOf<WorkspaceUserRecord>(await patchUser(member.user.id, { code: '' })).code).toBeNull();
    expect(dataOf<WorkspaceUserRecord>(await patchUser(member.user.id, { status: 'inactive' })).status).toBe(
      'inactive',
    );
    expect(dataOf<WorkspaceUserRecord>(await patchUser(member.user.id, { status: 'active' })).status).toBe(
      'active',
    );
  });

  it('409 DB target code for a staff code taken in this workspace; free elsewhere', async () => {
    const code = unique('EMP');
    await addMember(t.db, shop.id, { tags: [], code });
    await addMember(t.db, other.id, { tags: [], code: `${code}-b` });
    const member = await addMember(t.db, shop.id, { tags: [] });
    const taken = await patchUser(member.user.id, { code });
    expect(errorOf(taken)).toMatchObject({
      statusCode: 409,
      code: 'DB',
      target: 'code',
      message: 'This code must be unique',
    });
    expect((await patchUser(member.user.id, { code: `${code}-b` })).status).toBe(200);
  });

  it('a role of another workspace (or none at all) is not found, keyed on roleId', async () => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    const foreign = await createRole(t.db, other.id, []);
    for (const roleId of [foreign.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await patchUser(member.user.id, { roleId });
      expect(response.status).toBe(404);
      expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', key: 'roleId' });
    }
  });

  it.each([
    ['roleId not a uuid', { roleId: 'manager' }, 'roleId', validationCodes.ROLE_IS_REQUIRED],
    ['code of 61', { code: 'c'.repeat(61) }, 'code', validationCodes.CODE_TOO_LONG],
    ['status invited', { status: 'invited' }, 'status', undefined],
    ['unknown field', { email: 'x@y.example' }, '', undefined],
  ])('400 VALIDATION: %s', async (_label, body, key, code) => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    expectValidation(await patchUser(member.user.id, body), key, code);
  });

  it('an invited member becomes active only by accepting', async () => {
    const invited = await addInvitedMember(t.db, shop.id);
    expectValidation(await patchUser(invited.userId, { status: 'active' }), 'status');
    expect((await patchUser(invited.userId, { code: unique('I') })).status).toBe(200);
  });

  it('404 for a member of another workspace, who is left unchanged', async () => {
    const elsewhere = await addMember(t.db, other.id, { tags: [] });
    const response = await patchUser(elsewhere.user.id, { status: 'inactive' });
    expect(response.status).toBe(404);
    const [row] = await t.db.select().from(memberships).where(eq(memberships.userId, elsewhere.user.id));
    expect(row!.status).toBe('active');
  });
});

describe('the last admin', () => {
  let lone: { id: string };
  let onlyAdmin: TestMember;
  beforeAll(async () => {
    lone = await createWorkspace(t.db, 'Lone');
    onlyAdmin = await addMember(t.db, lone.id, { isAdmin: true });
    // Admins who are not active do not count.
    await addMember(t.db, lone.id, { isAdmin: true, status: 'inactive' });
    await addMember(t.db, lone.id, { isAdmin: true, status: 'invited' });
  });
  const patchInLone = (body: unknown) => patchUser(onlyAdmin.user.id, body, onlyAdmin.cookie, lone.id);

  it('cannot be demoted, disabled or removed: 400 LAST_ADMIN', async () => {
    expectValidation(await patchInLone({ isAdmin: false }), 'isAdmin', validationCodes.LAST_ADMIN);
    expectValidation(await patchInLone({ status: 'inactive' }), 'status', validationCodes.LAST_ADMIN);
    const removal = await api(t.app, {
      method: 'DELETE',
      url: usersUrl(`/${onlyAdmin.user.id}`, lone.id),
      cookie: onlyAdmin.cookie,
    });
    expectValidation(removal, 'id', validationCodes.LAST_ADMIN);
    const [row] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.workspaceId, lone.id), eq(memberships.userId, onlyAdmin.user.id)));
    expect(row).toMatchObject({ isAdmin: true, status: 'active' });
    // Other changes are fine.
    expect((await patchInLone({ code: 'OWNER' })).status).toBe(200);
  });

  it('is marked isLastAdmin in the list (inactive and invited admins do not count), and no longer once a second admin is active', async () => {
    const lastAdminFlags = async () =>
      Object.fromEntries(
        dataOf<WorkspaceUserRecord[]>(
          await api(t.app, { method: 'GET', url: usersUrl('', lone.id), cookie: onlyAdmin.cookie }),
        ).map((member) => [member.id, member.isLastAdmin]),
      );
    const before = await lastAdminFlags();
    expect(before[onlyAdmin.user.id]).toBe(true);
    expect(Object.values(before).filter(Boolean)).toHaveLength(1);
    const second = await addMember(t.db, lone.id, { isAdmin: true });
    const after = await lastAdminFlags();
    expect(after[onlyAdmin.user.id]).toBe(false);
    expect(after[second.user.id]).toBe(false);
    // The record of a single member answers the same way.
    const one = await api(t.app, {
      method: 'GET',
      url: usersUrl(`/${onlyAdmin.user.id}`, lone.id),
      cookie: onlyAdmin.cookie,
    });
    expect(dataOf<WorkspaceUserRecord>(one).isLastAdmin).toBe(false);
    await api(t.app, {
      method: 'DELETE',
      url: usersUrl(`/${second.user.id}`, lone.id),
      cookie: onlyAdmin.cookie,
    });
    expect((await lastAdminFlags())[onlyAdmin.user.id]).toBe(true);
  });

  it('with a second active admin, either may step down — but not both', async () => {
    const second = await addMember(t.db, lone.id, { isAdmin: true });
    expect(dataOf<WorkspaceUserRecord>(await patchInLone({ isAdmin: false })).isAdmin).toBe(false);
    expectValidation(
      await patchUser(second.user.id, { status: 'inactive' }, second.cookie, lone.id),
      'status',
      validationCodes.LAST_ADMIN,
    );
    // Promote back, then remove the second admin.
    expect((await patchUser(onlyAdmin.user.id, { isAdmin: true }, second.cookie, lone.id)).status).toBe(200);
    const removed = await api(t.app, {
      method: 'DELETE',
      url: usersUrl(`/${second.user.id}`, lone.id),
      cookie: onlyAdmin.cookie,
    });
    expect(removed.json).toEqual({ data: { id: second.user.id } });
  });
});

describe('two admins stepping down at the same moment', () => {
  it('exactly one succeeds; the other is refused (no deadlock, never zero admins)', async () => {
    for (let round = 0; round < 5; round++) {
      const pair = await createWorkspace(t.db);
      const first = await addMember(t.db, pair.id, { isAdmin: true });
      const second = await addMember(t.db, pair.id, { isAdmin: true });
      const answers = await Promise.all([
        patchUser(second.user.id, { isAdmin: false }, first.cookie, pair.id),
        patchUser(first.user.id, { status: 'inactive' }, second.cookie, pair.id),
      ]);
      // The loser was refused either by the rule (both passed the access check before either
      // committed) or by the access check (the winner had already taken their admin rights).
      const [won, lost] = answers[0]!.status === 200 ? answers : [answers[1]!, answers[0]!];
      expect(won!.status).toBe(200);
      if (lost!.status === 400) expect(errorOf(lost!).issues?.[0]?.message).toBe(validationCodes.LAST_ADMIN);
      else expect(lost!.status).toBe(403);
      const admins = await t.db
        .select()
        .from(memberships)
        .where(
          and(
            eq(memberships.workspaceId, pair.id),
            eq(memberships.isAdmin, true),
            eq(memberships.status, 'active'),
          ),
        );
      expect(admins).toHaveLength(1);
    }
  });
});

describe('no escalation through the users page', () => {
  let staffManager: TestMember;
  beforeAll(async () => {
    staffManager = await addMember(t.db, shop.id, {
      tags: ['viewUsers', 'addUsers', 'editUsers', 'deleteUsers', 'viewProducts'],
    });
  });

  it('a non-admin cannot assign (patch or invite) a role with a tag they do not hold: 403', async () => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    const bigger = await createRole(t.db, shop.id, ['viewProducts', 'deleteBrands']);
    const smaller = await createRole(t.db, shop.id, ['viewProducts']);
    const patch = await patchUser(member.user.id, { roleId: bigger.id }, staffManager.cookie);
    expect(patch.status).toBe(403);
    expect(errorOf(patch).message).toContain('deleteBrands');
    expect((await patchUser(member.user.id, { roleId: smaller.id }, staffManager.cookie)).status).toBe(200);

    const before = await tableCounts(t.db);
    const invitation = await invite(
      { email: `${unique('boss')}@example.com`, roleId: bigger.id },
      staffManager.cookie,
    );
    expect(invitation.status).toBe(403);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(t.mails).toEqual([]);
  });

  it('a non-admin cannot demote, disable or remove a member whose role holds a tag they lack', async () => {
    const owner = await addMember(t.db, shop.id, { tags: allPermissionTags });
    const smaller = await createRole(t.db, shop.id, ['viewProducts']);
    for (const body of [{ roleId: smaller.id }, { status: 'inactive' }, { code: unique('Q') }]) {
      const response = await patchUser(owner.user.id, body, staffManager.cookie);
      expect(response.status, JSON.stringify(body)).toBe(403);
    }
    expect((await removeUser(owner.user.id, staffManager.cookie)).status).toBe(403);
    const [kept] = await t.db.select().from(memberships).where(eq(memberships.userId, owner.user.id));
    expect(kept).toMatchObject({ roleId: owner.roleId, status: 'active', code: null });
    // An admin may.
    expect((await patchUser(owner.user.id, { roleId: smaller.id })).status).toBe(200);
  });

  it('a non-admin cannot make anyone an admin, nor change or remove an admin', async () => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    const otherAdmin = await addMember(t.db, shop.id, { isAdmin: true });
    expect((await patchUser(member.user.id, { isAdmin: true }, staffManager.cookie)).status).toBe(403);
    expect((await patchUser(staffManager.user.id, { isAdmin: true }, staffManager.cookie)).status).toBe(403);
    expect((await patchUser(otherAdmin.user.id, { status: 'inactive' }, staffManager.cookie)).status).toBe(
      403,
    );
    expect((await removeUser(otherAdmin.user.id, staffManager.cookie)).status).toBe(403);
    // Sending the unchanged flag is no change.
    expect(
      (await patchUser(member.user.id, { isAdmin: false, code: unique('Q') }, staffManager.cookie)).status,
    ).toBe(200);
  });
});

describe('delete', () => {
  it('removes the membership (and its invitation), not the account', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewUsers'] });
    const response = await removeUser(member.user.id);
    expect(response.json).toEqual({ data: { id: member.user.id } });
    expect(await t.db.select().from(memberships).where(eq(memberships.userId, member.user.id))).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.id, member.user.id))).toHaveLength(1);
    // Their next request in the workspace is refused.
    expect((await api(t.app, { url: usersUrl(), cookie: member.cookie })).status).toBe(403);

    const invited = await addInvitedMember(t.db, shop.id);
    await removeUser(invited.userId);
    expect(
      await t.db
        .select()
        .from(invites)
        .where(eq(invites.tokenHash, hashToken(invited.token))),
    ).toEqual([]);
  });

  it('404 for a member of another workspace, a stranger and a non-uuid', async () => {
    const elsewhere = await addMember(t.db, other.id, { tags: [] });
    for (const id of [elsewhere.user.id, (await createUser(t.db)).id, 'x']) {
      expect((await removeUser(id)).status, id).toBe(404);
    }
    expect(
      await t.db.select().from(memberships).where(eq(memberships.userId, elsewhere.user.id)),
    ).toHaveLength(1);
  });
});

describe('invite', () => {
  it('a new email: an account without password, a membership waiting as invited, a hashed token, a mail', async () => {
    const role = await createRole(t.db, shop.id, ['viewProducts'], { title: 'Cashier' });
    const response = await invite({
      email: ' Nour.Ali@Example.com ',
      roleId: role.id,
      code: 'C-1',
    });
    expect(response.status).toBe(201);
    const record = dataOf<WorkspaceUserRecord>(response);
    expect(record).toMatchObject({
      name: 'nour.ali',
      email: 'nour.ali@example.com',
      status: 'invited',
      isAdmin: false,
      code: 'C-1',
      applications: [],
      role: { id: role.id, title: 'Cashier' },
    });
    const [account] = await t.db.select().from(users).where(eq(users.id, record.id));
    expect(account!.passwordHash).toBeNull();
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, record.id));
    expect(membership!.invitedBy).toBe(admin.user.id);

    expect(t.mails).toHaveLength(1);
    const mail = t.mails[0]!;
    expect(mail.to).toBe('nour.ali@example.com');
    expect(mail.subject).toBe(`You are invited to ${shop.name} on Dukkan`);
    expect(mail.text).toContain('Hala Admin invited you');
    const token = inviteLinkPattern.exec(mail.text)![1]!;
    expect(mail.link).toBe(`${t.config.publicUrl}/accept-invite?token=${token}`);
    expect(mail.html).toContain(`href="${mail.link}"`);
    const [stored] = await t.db.select().from(invites).where(eq(invites.userId, record.id));
    expect(stored!.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const days = (stored!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  type Saved = 'en' | 'ar' | null;
  const languageCases: {
    name: string;
    invitee: Saved | 'new';
    inviter: Saved;
    page?: string;
    mailed: 'en' | 'ar';
  }[] = [
    { name: 'a new email: the inviter’s saved language', invitee: 'new', inviter: 'ar', mailed: 'ar' },
    { name: 'the invitee saved ar, the inviter en: ar', invitee: 'ar', inviter: 'en', mailed: 'ar' },
    { name: 'the invitee saved en, the inviter ar: en', invitee: 'en', inviter: 'ar', mailed: 'en' },
    { name: 'the invitee saved none: the inviter’s', invitee: null, inviter: 'ar', mailed: 'ar' },
    { name: 'neither saved: the inviter’s page', invitee: null, inviter: null, page: 'ar-EG', mailed: 'ar' },
    { name: 'neither saved, no page language: en', invitee: null, inviter: null, mailed: 'en' },
  ];
  it.each(languageCases)('the mail’s language — $name', async ({ invitee, inviter, page, mailed }) => {
    const inviterMember = await addMember(t.db, shop.id, {
      isAdmin: true,
      user: await createUser(t.db, { language: inviter }),
    });
    const email =
      invitee === 'new'
        ? `${unique('new')}@example.com`
        : (await createUser(t.db, { language: invitee })).email;
    const role = await createRole(t.db, shop.id);
    const response = await api(t.app, {
      url: usersUrl('/invite', shop.id),
      body: { email, roleId: role.id },
      cookie: inviterMember.cookie,
      headers: page ? { 'accept-language': page } : {},
    });
    expect(response.status, response.text).toBe(201);
    expect(t.mails).toHaveLength(1);
    if (mailed === 'ar') {
      expect(t.mails[0]!.subject).toContain('دعوة للانضمام');
      expect(t.mails[0]!.html).toContain('dir="rtl"');
    } else {
      expect(t.mails[0]!.subject).toBe(`You are invited to ${shop.name} on Dukkan`);
    }
    // The inviter's language is not saved as the new account's: it was never its owner's choice.
    const [account] = await t.db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.email, email));
    expect(account!.language).toBe(invitee === 'new' ? null : invitee);
  });

  it("an account of another workspace: the same answer as a new email, and nothing of the account's until it accepts", async () => {
    // Rana has an account, a phone and sign-ins in a rival workspace.
    const rival = await createWorkspace(t.db, 'Rival');
    const rana = await createUser(t.db, { name: 'Rana Existing', phone: '+20 100 555 0101' });
    await addMember(t.db, rival.id, { user: rana, tags: [] });
    const ranaSession = await login(t.app, rana);
    expect((await api(t.app, { url: usersUrl('', rival.id), cookie: ranaSession })).status).toBe(403);
    const [account] = await t.db.select().from(users).where(eq(users.id, rana.id));
    expect(account!.lastLoginAt).toBeInstanceOf(Date);

    const role = await createRole(t.db, shop.id);
    const fresh = `${unique('fresh')}@example.com`;
    const existingAnswer = await invite({ email: rana.email, roleId: role.id });
    const newAnswer = await invite({ email: fresh, roleId: role.id });
    expect(existingAnswer.status).toBe(201);
    expect(newAnswer.status).toBe(201);
    const existing = dataOf<WorkspaceUserRecord>(existingAnswer);
    const created = dataOf<WorkspaceUserRecord>(newAnswer);
    const sameShape = (record: WorkspaceUserRecord) => ({
      ...record,
      id: '·',
      email: '·',
      name: record.name === record.email.split('@')[0] ? 'local part' : record.name,
      createdAt: '·',
    });
    expect(sameShape(existing)).toEqual(sameShape(created));
    expect(existing).toMatchObject({
      id: rana.id,
      name: rana.email.split('@')[0],
      phone: null,
      lastLoginAt: null,
    });

    // Nor does the list, its search or its sort tell them apart.
    const listed = await api(t.app, {
      url: usersUrl(`?search=${encodeURIComponent('Rana Existing')}`),
      cookie: admin.cookie,
    });
    expect(dataOf<WorkspaceUserRecord[]>(listed)).toEqual([]);
    const got = dataOf<WorkspaceUserRecord>(
      await api(t.app, { url: usersUrl(`/${rana.id}`), cookie: admin.cookie }),
    );
    expect(got).toEqual(existing);
    const body = JSON.stringify(
      await api(t.app, { url: usersUrl('?pageSize=100'), cookie: admin.cookie }).then((r) => r.json),
    );
    expect(body).not.toContain('Rana Existing');
    expect(body).not.toContain('555 0101');

    // Accepted, the workspace sees the member's name and phone, and a sign-in only once they open it.
    const token = inviteLinkPattern.exec(t.mails.find((mail) => mail.to === rana.email)!.text)![1]!;
    expect((await api(t.app, { url: '/api/workspaces/users/accept-invite', body: { token } })).status).toBe(
      200,
    );
    const joined = dataOf<WorkspaceUserRecord>(
      await api(t.app, { url: usersUrl(`/${rana.id}`), cookie: admin.cookie }),
    );
    expect(joined).toMatchObject({
      name: 'Rana Existing',
      phone: '+20 100 555 0101',
      status: 'active',
      lastLoginAt: null,
    });
    const [rivalMembership] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, rana.id), eq(memberships.workspaceId, rival.id)));
    expect(rivalMembership!.lastSignInAt).toBeNull();

    const shopRole = await createRole(t.db, shop.id, ['viewTags']);
    await t.db
      .update(memberships)
      .set({ roleId: shopRole.id })
      .where(and(eq(memberships.userId, rana.id), eq(memberships.workspaceId, shop.id)));
    const opened = await api(t.app, { url: `/api/product-tags?workspaceId=${shop.id}`, cookie: ranaSession });
    expect(opened.status).toBe(200);
    const seen = dataOf<WorkspaceUserRecord>(
      await api(t.app, { url: usersUrl(`/${rana.id}`), cookie: admin.cookie }),
    );
    const sessionToken = ranaSession.slice(ranaSession.indexOf('=') + 1);
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(sessionToken)));
    expect(seen.lastLoginAt).toBe(session!.createdAt.toISOString());
  });

  it('an active or inactive member: 400 ALREADY_A_MEMBER on email; a pending one is invited again', async () => {
    const role = await createRole(t.db, shop.id);
    for (const status of ['active', 'inactive'] as const) {
      const member = await addMember(t.db, shop.id, { tags: [], status });
      expectValidation(
        await invite({ email: member.user.email, roleId: role.id }),
        'email',
        validationCodes.ALREADY_A_MEMBER,
      );
    }
    const pending = await addInvitedMember(t.db, shop.id);
    const again = await invite({ email: pending.email, roleId: role.id, code: unique('P') });
    expect(dataOf<WorkspaceUserRecord>(again)).toMatchObject({ status: 'invited', role: { id: role.id } });
    // The previous link no longer exists.
    expect((await api(t.app, { url: `/api/auth/invite-status?token=${pending.token}` })).status).toBe(404);
  });

  it('a role of another workspace: 404 keyed on roleId, nothing written', async () => {
    const foreign = await createRole(t.db, other.id, []);
    const before = await tableCounts(t.db);
    const response = await invite({ email: `${unique('n')}@example.com`, roleId: foreign.id });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({ key: 'roleId' });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it.each([
    [
      'bad email',
      { email: 'nope', roleId: '00000000-0000-4000-8000-000000000000' },
      'email',
      validationCodes.EMAIL_IS_INVALID,
    ],
    ['missing role', { email: 'a@b.example' }, 'roleId', validationCodes.ROLE_IS_REQUIRED],
    [
      'code of 61',
      { email: 'a@b.example', roleId: '00000000-0000-4000-8000-000000000000', code: 'c'.repeat(61) },
      'code',
      validationCodes.CODE_TOO_LONG,
    ],
    [
      'unknown field',
      { email: 'a@b.example', roleId: '00000000-0000-4000-8000-000000000000', isAdmin: true },
      '',
      undefined,
    ],
  ])('400 VALIDATION: %s', async (_label, body, key, code) => {
    expectValidation(await invite(body), key, code);
  });

  it('a taken staff code: 409 DB target code, and no account is left behind', async () => {
    const code = unique('T');
    await addMember(t.db, shop.id, { tags: [], code });
    const role = await createRole(t.db, shop.id);
    const before = await tableCounts(t.db);
    const response = await invite({ email: `${unique('c')}@example.com`, roleId: role.id, code });
    expect(errorOf(response)).toMatchObject({ code: 'DB', target: 'code' });
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('resend-invite', () => {
  it('a new token and expiry replace the old link, and the mail goes again', async () => {
    const pending = await addInvitedMember(t.db, shop.id, { expiresAt: new Date(Date.now() - 1000) });
    const response = await api(t.app, {
      url: usersUrl('/resend-invite'),
      body: { userId: pending.userId },
      cookie: admin.cookie,
    });
    expect(dataOf<WorkspaceUserRecord>(response)).toMatchObject({ id: pending.userId, status: 'invited' });
    expect(t.mails).toHaveLength(1);
    const token = inviteLinkPattern.exec(t.mails[0]!.text)![1]!;
    expect(token).not.toBe(pending.token);
    expect((await api(t.app, { url: `/api/auth/invite-status?token=${pending.token}` })).status).toBe(404);
    const status = dataOf<{ status: string }>(
      await api(t.app, { url: `/api/auth/invite-status?token=${token}` }),
    );
    expect(status.status).toBe('pending');
  });

  it('only for invited members (400 ALREADY_A_MEMBER), of this workspace (404)', async () => {
    const member = await addMember(t.db, shop.id, { tags: [] });
    expectValidation(
      await api(t.app, {
        url: usersUrl('/resend-invite'),
        body: { userId: member.user.id },
        cookie: admin.cookie,
      }),
      'userId',
      validationCodes.ALREADY_A_MEMBER,
    );
    const elsewhere = await addInvitedMember(t.db, other.id);
    const foreign = await api(t.app, {
      url: usersUrl('/resend-invite'),
      body: { userId: elsewhere.userId },
      cookie: admin.cookie,
    });
    expect(foreign.status).toBe(404);
    expectValidation(
      await api(t.app, { url: usersUrl('/resend-invite'), body: { userId: 'x' }, cookie: admin.cookie }),
      'userId',
    );
    expect(t.mails).toEqual([]);
  });
});

describe('member applications (spec §5: a user needs a role and applications)', () => {
  let appsShop: { id: string };
  let appsAdmin: TestMember;
  let role: { id: string };
  /** Installed here: pos (approved), kds (free trial). Not: waiting (pending), theirs (installed elsewhere). */
  let pos: ApplicationRow;
  let kds: ApplicationRow;
  let waiting: ApplicationRow;
  let theirs: ApplicationRow;
  beforeAll(async () => {
    appsShop = await createWorkspace(t.db, 'Apps shop');
    appsAdmin = await addMember(t.db, appsShop.id, { isAdmin: true });
    role = await createRole(t.db, appsShop.id, [], { title: 'Cashier' });
    [pos, kds, waiting, theirs] = [
      await insertApplication(t.db),
      await insertApplication(t.db),
      await insertApplication(t.db),
      await insertApplication(t.db),
    ];
    await insertSubscription(t.db, appsShop.id, pos.id, 'approved', { plan: 'monthly' });
    await insertSubscription(t.db, appsShop.id, kds.id, 'freeTrial');
    await insertSubscription(t.db, appsShop.id, waiting.id, 'pending', { plan: 'monthly' });
    await insertSubscription(t.db, other.id, theirs.id, 'approved', { plan: 'monthly' });
  });
  const inviteHere = (body: Record<string, unknown>) => invite(body, appsAdmin.cookie, appsShop.id);
  const patchHere = (userId: string, body: unknown) => patchUser(userId, body, appsAdmin.cookie, appsShop.id);
  const newEmail = () => `${unique('apps')}@example.com`;
  const unchanged = async (refused: () => Promise<void>) => {
    const before = { snapshot: await workspaceSnapshot(t.db, appsShop.id), counts: await tableCounts(t.db) };
    await refused();
    expect({ snapshot: await workspaceSnapshot(t.db, appsShop.id), counts: await tableCounts(t.db) }).toEqual(
      before,
    );
    expect(t.mails).toEqual([]);
  };

  it('invite: the installed applications given are stored', async () => {
    const response = await inviteHere({
      email: newEmail(),
      roleId: role.id,
      applications: [pos.clientId, kds.clientId],
    });
    expect(response.status).toBe(201);
    expect(dataOf<WorkspaceUserRecord>(response).applications).toEqual([pos.clientId, kds.clientId]);
  });

  it.each([
    ['pending here', () => waiting.clientId],
    ['installed only in another workspace', () => theirs.clientId],
    ['unknown', () => 'no-such-app'],
  ])(
    'invite: an application %s is refused at its index (APPLICATION_NOT_INSTALLED), nothing written',
    async (_label, clientId) => {
      await unchanged(async () => {
        const response = await inviteHere({
          email: newEmail(),
          roleId: role.id,
          applications: [pos.clientId, clientId()],
        });
        expectValidation(response, 'applications.1', validationCodes.APPLICATION_NOT_INSTALLED);
        expect(errorOf(response).issues).toHaveLength(1);
      });
    },
  );

  it('invite: none given while the workspace has installed applications is allowed (decision 0035): the member has none', async () => {
    for (const body of [{}, { applications: [] }]) {
      const response = await inviteHere({ email: newEmail(), roleId: role.id, ...body });
      expect(response.status, response.text).toBe(201);
      expect(dataOf<WorkspaceUserRecord>(response)).toMatchObject({ isAdmin: false, applications: [] });
    }
    // The role stays required.
    t.mails.length = 0;
    await unchanged(async () => {
      expectValidation(await inviteHere({ email: newEmail(), applications: [] }), 'roleId');
    });
  });

  it('invite: a non-admin with addUsers invites a member with no application, though they hold none', async () => {
    const manager = await addMember(t.db, appsShop.id, { tags: ['viewUsers', 'addUsers'] });
    const response = await invite(
      { email: newEmail(), roleId: role.id, applications: [] },
      manager.cookie,
      appsShop.id,
    );
    expect(response.status, response.text).toBe(201);
    expect(dataOf<WorkspaceUserRecord>(response).applications).toEqual([]);
  });

  it('re-inviting a pending invitation checks its new applications the same way', async () => {
    const pending = await addInvitedMember(t.db, appsShop.id, { roleId: role.id });
    await unchanged(async () => {
      expectValidation(
        await inviteHere({ email: pending.email, roleId: role.id, applications: [waiting.clientId] }),
        'applications.0',
        validationCodes.APPLICATION_NOT_INSTALLED,
      );
    });
    const response = await inviteHere({
      email: pending.email,
      roleId: role.id,
      applications: [kds.clientId],
    });
    expect(dataOf<WorkspaceUserRecord>(response).applications).toEqual([kds.clientId]);
    const emptied = await inviteHere({ email: pending.email, roleId: role.id, applications: [] });
    expect(dataOf<WorkspaceUserRecord>(emptied).applications).toEqual([]);
  });

  it('patch: installed applications replace the list; one not installed is refused, nothing changed; none empties it', async () => {
    const member = await addMember(t.db, appsShop.id, { roleId: role.id });
    const set = await patchHere(member.user.id, { applications: [kds.clientId, pos.clientId] });
    expect(dataOf<WorkspaceUserRecord>(set).applications).toEqual([kds.clientId, pos.clientId]);
    t.mails.length = 0;
    await unchanged(async () => {
      for (const clientId of [waiting.clientId, theirs.clientId, 'no-such-app']) {
        expectValidation(
          await patchHere(member.user.id, { applications: [clientId], code: unique('C') }),
          'applications.0',
          validationCodes.APPLICATION_NOT_INSTALLED,
        );
      }
    });
    const emptied = await patchHere(member.user.id, { applications: [] });
    expect(dataOf<WorkspaceUserRecord>(emptied).applications).toEqual([]);
  });

  it('patch: a change of status or code alone leaves the list as it is, even one an expiry emptied', async () => {
    // Given before the workspace installed anything, or an application since expired.
    const member = await addMember(t.db, appsShop.id, { roleId: role.id });
    expect(dataOf<WorkspaceUserRecord>(await patchHere(member.user.id, { status: 'inactive' })).status).toBe(
      'inactive',
    );
    expect(
      dataOf<WorkspaceUserRecord>(await patchHere(member.user.id, { code: unique('K') })).applications,
    ).toEqual([]);
  });

  it('patch: admins may use every installed application; a demoted one keeps the list given, possibly none', async () => {
    const second = await addMember(t.db, appsShop.id, { isAdmin: true });
    expect(
      dataOf<WorkspaceUserRecord>(await patchHere(second.user.id, { applications: [] })).applications,
    ).toEqual([]);
    // An admin's list is still checked: only installed applications.
    expectValidation(
      await patchHere(second.user.id, { applications: [waiting.clientId] }),
      'applications.0',
      validationCodes.APPLICATION_NOT_INSTALLED,
    );
    // Demoted with none: a member without applications (decision 0035).
    const bare = await patchHere(second.user.id, { isAdmin: false });
    expect(dataOf<WorkspaceUserRecord>(bare)).toMatchObject({ isAdmin: false, applications: [] });
    await patchHere(second.user.id, { isAdmin: true });
    const demoted = await patchHere(second.user.id, { isAdmin: false, applications: [pos.clientId] });
    expect(dataOf<WorkspaceUserRecord>(demoted)).toMatchObject({
      isAdmin: false,
      applications: [pos.clientId],
    });
  });

  it('another workspace: its admin cannot give this workspace’s applications, and this one cannot give theirs', async () => {
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    const otherRole = await createRole(t.db, other.id);
    expectValidation(
      await invite(
        { email: newEmail(), roleId: otherRole.id, applications: [pos.clientId] },
        otherAdmin.cookie,
        other.id,
      ),
      'applications.0',
      validationCodes.APPLICATION_NOT_INSTALLED,
    );
    const response = await invite(
      { email: newEmail(), roleId: otherRole.id, applications: [theirs.clientId] },
      otherAdmin.cookie,
      other.id,
    );
    expect(dataOf<WorkspaceUserRecord>(response).applications).toEqual([theirs.clientId]);
  });
});

describe('a non-admin gives only the applications they hold (no escalation)', () => {
  let grantShop: { id: string };
  let grantAdmin: TestMember;
  /** Holds pos, not kds; may view, invite and edit members. */
  let manager: TestMember;
  let role: { id: string };
  let pos: ApplicationRow;
  let kds: ApplicationRow;
  beforeAll(async () => {
    grantShop = await createWorkspace(t.db, 'Grant shop');
    grantAdmin = await addMember(t.db, grantShop.id, { isAdmin: true });
    role = await createRole(t.db, grantShop.id, [], { title: 'Cashier' });
    [pos, kds] = [await insertApplication(t.db), await insertApplication(t.db)];
    await insertSubscription(t.db, grantShop.id, pos.id, 'approved', { plan: 'monthly' });
    await insertSubscription(t.db, grantShop.id, kds.id, 'freeTrial');
    manager = await addMember(t.db, grantShop.id, {
      tags: ['viewUsers', 'addUsers', 'editUsers'],
      applications: [pos.clientId],
    });
    // Its first request records the manager's sign-in here: done now, outside the snapshots.
    expect((await api(t.app, { url: usersUrl('', grantShop.id), cookie: manager.cookie })).status).toBe(200);
  });
  const patchHere = (userId: string, body: unknown, cookie = manager.cookie) =>
    patchUser(userId, body, cookie, grantShop.id);
  const inviteHere = (body: Record<string, unknown>, cookie = manager.cookie) =>
    invite(body, cookie, grantShop.id);
  const unchanged = async (refused: () => Promise<void>) => {
    const before = { snapshot: await workspaceSnapshot(t.db, grantShop.id), counts: await tableCounts(t.db) };
    await refused();
    expect({
      snapshot: await workspaceSnapshot(t.db, grantShop.id),
      counts: await tableCounts(t.db),
    }).toEqual(before);
    expect(t.mails).toEqual([]);
  };
  /** A 403 FORBIDDEN whose issues name the refused field with its code (the form shows it there). */
  const expectRefused = (response: Awaited<ReturnType<typeof api>>, path: string, code: string) => {
    expect(response.status, response.text).toBe(403);
    const error = errorOf(response);
    expect(error.code).toBe('FORBIDDEN');
    expect(error.key).toBe(path);
    expect(error.issues).toEqual([{ path, message: code }]);
    return error;
  };

  it('a non-admin cannot change their own applications (403 OWN_APPLICATIONS_UNCHANGEABLE); the same list back is no change', async () => {
    await unchanged(async () => {
      for (const applications of [[pos.clientId, kds.clientId], [kds.clientId], []]) {
        expectRefused(
          await patchHere(manager.user.id, { applications }),
          'applications',
          validationCodes.OWN_APPLICATIONS_UNCHANGEABLE,
        );
      }
    });
    const same = await patchHere(manager.user.id, { applications: [pos.clientId], code: unique('M') });
    expect(dataOf<WorkspaceUserRecord>(same).applications).toEqual([pos.clientId]);
    // An admin decides for them.
    const given = await patchHere(
      manager.user.id,
      { applications: [pos.clientId, kds.clientId] },
      grantAdmin.cookie,
    );
    expect(dataOf<WorkspaceUserRecord>(given).applications).toEqual([pos.clientId, kds.clientId]);
    await patchHere(manager.user.id, { applications: [pos.clientId] }, grantAdmin.cookie);
  });

  it('patch: one the granter does not hold is refused at its index (403 APPLICATION_NOT_HELD); held, kept or taken away ones are not', async () => {
    const member = await addMember(t.db, grantShop.id, { roleId: role.id, applications: [pos.clientId] });
    await unchanged(async () => {
      const refused = expectRefused(
        await patchHere(member.user.id, { applications: [pos.clientId, kds.clientId] }),
        'applications.1',
        validationCodes.APPLICATION_NOT_HELD,
      );
      expect(refused.message).toContain(kds.clientId);
    });
    // Unchanged applications keep working: a role change without them, or the same list sent back.
    expect((await patchHere(member.user.id, { roleId: role.id })).status).toBe(200);
    expect((await patchHere(member.user.id, { applications: [pos.clientId] })).status).toBe(200);

    // Given kds by an admin: the manager may keep it, add what they hold, and take it away.
    const other = await addMember(t.db, grantShop.id, { roleId: role.id, applications: [kds.clientId] });
    const kept = await patchHere(other.user.id, { applications: [kds.clientId, pos.clientId] });
    expect(dataOf<WorkspaceUserRecord>(kept).applications).toEqual([kds.clientId, pos.clientId]);
    const taken = await patchHere(other.user.id, { applications: [pos.clientId] });
    expect(dataOf<WorkspaceUserRecord>(taken).applications).toEqual([pos.clientId]);
    // Once taken away, giving it back is a grant again.
    expectRefused(
      await patchHere(other.user.id, { applications: [kds.clientId] }),
      'applications.0',
      validationCodes.APPLICATION_NOT_HELD,
    );
    // An admin gives any installed application.
    const byAdmin = await patchHere(member.user.id, { applications: [kds.clientId] }, grantAdmin.cookie);
    expect(dataOf<WorkspaceUserRecord>(byAdmin).applications).toEqual([kds.clientId]);
  });

  it('invite: one the inviter does not hold is refused (403 APPLICATION_NOT_HELD), no account, no mail; one they hold is accepted', async () => {
    const email = `${unique('grant')}@example.com`;
    await unchanged(async () => {
      expectRefused(
        await inviteHere({ email, roleId: role.id, applications: [kds.clientId, pos.clientId] }),
        'applications.0',
        validationCodes.APPLICATION_NOT_HELD,
      );
    });
    const held = await inviteHere({ email, roleId: role.id, applications: [pos.clientId] });
    expect(held.status, held.text).toBe(201);
    expect(dataOf<WorkspaceUserRecord>(held).applications).toEqual([pos.clientId]);
    // Re-inviting the pending person: what the invitation has is kept, kds is still not given.
    expectRefused(
      await inviteHere({ email, roleId: role.id, applications: [pos.clientId, kds.clientId] }),
      'applications.1',
      validationCodes.APPLICATION_NOT_HELD,
    );
    // An admin invites with any installed application.
    const byAdmin = await inviteHere(
      {
        email: `${unique('grant')}@example.com`,
        roleId: role.id,
        applications: [pos.clientId, kds.clientId],
      },
      grantAdmin.cookie,
    );
    expect(dataOf<WorkspaceUserRecord>(byAdmin).applications).toEqual([pos.clientId, kds.clientId]);
  });
});

describe('signed out', () => {
  it('every users route answers 401 without a session', async () => {
    const id = admin.user.id;
    for (const [method, url, body] of [
      ['GET', usersUrl(), undefined],
      ['GET', usersUrl('/filters'), undefined],
      ['GET', usersUrl(`/${id}`), undefined],
      ['PATCH', usersUrl(`/${id}`), { code: 'x' }],
      ['DELETE', usersUrl(`/${id}`), undefined],
      ['POST', usersUrl('/invite'), { email: 'a@b.example', roleId: id }],
      ['POST', usersUrl('/resend-invite'), { userId: id }],
    ] as const) {
      const response = await api(t.app, { method, url, body });
      expect(response.status, `${method} ${url}`).toBe(401);
    }
  });
});
