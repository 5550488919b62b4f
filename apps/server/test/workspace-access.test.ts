import { validationCodes } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships } from '../src/db/schema/index.ts';
import { api, createUser, dataOf, errorOf, expectValidation, login } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace, sessionCookie } from './helpers/workspaces.ts';

/** The one permission check (http/access-guard.ts), seen through the roles list. */
let t: TestApp;
let shop: { id: string };
let other: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Shop');
  other = await createWorkspace(t.db, 'Other');
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const listRoles = (cookie: string | undefined, workspaceId: string | undefined) =>
  api(t.app, {
    url:
      workspaceId === undefined ? '/api/authority-roles' : `/api/authority-roles?workspaceId=${workspaceId}`,
    cookie,
  });

describe('the access guard on workspace routes', () => {
  it('401 without a session, whatever the workspaceId', async () => {
    for (const workspaceId of [shop.id, 'garbage', undefined]) {
      for (const cookie of [undefined, 'dukkan_session=forged']) {
        const response = await listRoles(cookie, workspaceId);
        expect(response.status, `${cookie} ${workspaceId}`).toBe(401);
        expect(errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
      }
    }
  });

  it('400 WORKSPACE_ID_IS_REQUIRED for a missing or non-uuid workspaceId', async () => {
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    for (const workspaceId of [undefined, '', 'shop', `${shop.id}x`, '1']) {
      expectValidation(
        await listRoles(admin.cookie, workspaceId),
        'workspaceId',
        validationCodes.WORKSPACE_ID_IS_REQUIRED,
      );
    }
    // Twice in the query string is not one workspace either.
    const twice = await api(t.app, {
      url: `/api/authority-roles?workspaceId=${shop.id}&workspaceId=${other.id}`,
      cookie: admin.cookie,
    });
    expectValidation(twice, 'workspaceId', validationCodes.WORKSPACE_ID_IS_REQUIRED);
  });

  it('403 FORBIDDEN for a non-member, an unknown workspace, an invited or inactive member', async () => {
    const stranger = await addMember(t.db, other.id, { tags: ['viewAuthority'] });
    const invited = await addMember(t.db, shop.id, { tags: ['viewAuthority'], status: 'invited' });
    const inactive = await addMember(t.db, shop.id, { tags: ['viewAuthority'], status: 'inactive' });
    const invitedAdmin = await addMember(t.db, shop.id, { isAdmin: true, status: 'invited' });
    for (const [label, cookie, workspaceId] of [
      ['member of another workspace', stranger.cookie, shop.id],
      ['unknown workspace', stranger.cookie, '00000000-0000-4000-8000-000000000000'],
      ['invited member', invited.cookie, shop.id],
      ['inactive member', inactive.cookie, shop.id],
      ['invited admin', invitedAdmin.cookie, shop.id],
    ] as const) {
      const response = await listRoles(cookie, workspaceId);
      expect(response.status, label).toBe(403);
      expect(errorOf(response)).toMatchObject({ code: 'FORBIDDEN', name: 'ForbiddenError' });
    }
  });

  it('a member passes with the tag, is refused without it; an admin without a role passes', async () => {
    const viewer = await addMember(t.db, shop.id, { tags: ['viewAuthority'] });
    const cashier = await addMember(t.db, shop.id, { tags: ['viewProducts', 'addAuthority'] });
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    expect((await listRoles(viewer.cookie, shop.id)).status).toBe(200);
    expect((await listRoles(cashier.cookie, shop.id)).status).toBe(403);
    expect((await listRoles(admin.cookie, shop.id)).status).toBe(200);
  });

  it('the grant is the one of the named workspace: admin here, cashier there', async () => {
    const user = await createUser(t.db);
    await addMember(t.db, shop.id, { user, isAdmin: true });
    await addMember(t.db, other.id, { user, tags: ['viewProducts'] });
    const cookie = await login(t.app, user);
    expect((await listRoles(cookie, shop.id)).status).toBe(200);
    expect((await listRoles(cookie, other.id)).status).toBe(403);
  });

  it('a disabled member loses access with their very next request, and regains it when enabled', async () => {
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const member = await addMember(t.db, shop.id, { tags: ['viewAuthority', 'viewUsers'] });
    expect((await listRoles(member.cookie, shop.id)).status).toBe(200);

    const disable = await api(t.app, {
      method: 'PATCH',
      url: `/api/workspaces/users/${member.user.id}?workspaceId=${shop.id}`,
      body: { status: 'inactive' },
      cookie: admin.cookie,
    });
    expect(dataOf<{ status: string }>(disable).status).toBe('inactive');
    expect((await listRoles(member.cookie, shop.id)).status).toBe(403);
    // The session itself still works for the signed-in routes; the workspace is gone from it.
    const me = dataOf<{ workspaces: unknown[] }>(
      await api(t.app, { url: '/api/auth/user', cookie: member.cookie }),
    );
    expect(me.workspaces).toEqual([]);

    await api(t.app, {
      method: 'PATCH',
      url: `/api/workspaces/users/${member.user.id}?workspaceId=${shop.id}`,
      body: { status: 'active' },
      cookie: admin.cookie,
    });
    expect((await listRoles(member.cookie, shop.id)).status).toBe(200);
  });

  it('a removed member, or one whose role loses the tag, is refused at once', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewAuthority'] });
    expect((await listRoles(member.cookie, shop.id)).status).toBe(200);
    const role = await createRole(t.db, shop.id, ['viewProducts']);
    await t.db
      .update(memberships)
      .set({ roleId: role.id })
      .where(and(eq(memberships.workspaceId, shop.id), eq(memberships.userId, member.user.id)));
    expect((await listRoles(member.cookie, shop.id)).status).toBe(403);
    await t.db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, shop.id), eq(memberships.userId, member.user.id)));
    expect((await listRoles(member.cookie, shop.id)).status).toBe(403);
  });
});

describe('cost of the check', () => {
  /** Counts the statements the database driver runs during one request. */
  async function queriesDuring(request: () => Promise<unknown>): Promise<number> {
    const client = (t.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const spy = vi.spyOn(client, 'query');
    await request();
    const calls = spy.mock.calls.length;
    spy.mockRestore();
    return calls;
  }

  it('a permission route costs one query for session, user, membership and role together', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewAuthority'] });
    // A route whose handler needs no query (a non-uuid id is simply not found).
    const request = async () => {
      const response = await api(t.app, {
        url: `/api/authority-roles/not-an-id?workspaceId=${shop.id}`,
        cookie: member.cookie,
      });
      expect(response.status).toBe(404);
    };
    // A session's first request in the workspace also records it as the member's last sign-in there.
    expect(await queriesDuring(request)).toBe(2);
    expect(await queriesDuring(request)).toBe(1);
  });

  it('a signed-in route costs one query for the session', async () => {
    const user = await createUser(t.db);
    const cookie = await sessionCookie(t.db, user.id);
    const count = await queriesDuring(async () => {
      // Refused by validation before the handler's own queries.
      const response = await api(t.app, { method: 'PATCH', url: '/api/auth/profile', body: {}, cookie });
      expect(response.status).toBe(400);
    });
    expect(count).toBe(1);
  });
});
