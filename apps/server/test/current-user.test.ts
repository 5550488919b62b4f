import { allPermissionTags, type CurrentUser } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, workspaces } from '../src/db/schema/index.ts';
import { loadCurrentUser, loadCurrentUserJson } from '../src/features/auth/current-user.ts';
import { api, createUser } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace, sessionCookie } from './helpers/workspaces.ts';

/** `GET auth/user` sends a pre-serialized current user; it must be exactly `loadCurrentUser`'s. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the serialized current user', () => {
  it('equals loadCurrentUser for every kind of membership and awkward text', async () => {
    const user = await createUser(t.db, { name: 'Sara "the \\ boss" \n سارة', phone: '+20 100 000 0000' });
    const adminOnly = await createWorkspace(t.db, 'Admin only "quoted" </script>');
    const both = await createWorkspace(t.db, 'متجر النيل');
    await t.db.update(workspaces).set({ logo: '/files/logo "x".png' }).where(eq(workspaces.id, both.id));
    const empty = await createWorkspace(t.db, 'Empty role');
    const full = await createWorkspace(t.db, 'Full role');
    const odd = await createWorkspace(t.db, 'Odd tags');
    const gone = await createWorkspace(t.db, 'Inactive');
    await addMember(t.db, adminOnly.id, { user, isAdmin: true });
    await addMember(t.db, both.id, { user, isAdmin: true, tags: ['viewProducts'] });
    await addMember(t.db, empty.id, { user, tags: [] });
    await addMember(t.db, full.id, { user, tags: allPermissionTags });
    // Written behind the API's back: not catalogue identifiers, so the careful path is taken.
    const oddRole = await createRole(t.db, odd.id, [], { title: 'Tab\there' });
    await t.db
      .update(roles)
      .set({ permissions: ['a"b', 'c\\d', 'é'] })
      .where(eq(roles.id, oddRole.id));
    await addMember(t.db, odd.id, { user, roleId: oddRole.id });
    await addMember(t.db, gone.id, { user, tags: ['viewBrands'], status: 'inactive' });

    const object = await loadCurrentUser(t.db, user.id, ['pwd']);
    const serialized = await loadCurrentUserJson(t.db, user.id, ['pwd']);
    expect(JSON.parse(serialized!)).toEqual(object);
    // Same key order too: the answer reads the same either way.
    expect(serialized).toBe(JSON.stringify(object));
    expect(object!.adminWorkspaces.map((workspace) => workspace.name).sort()).toEqual(
      [adminOnly.name, both.name].sort(),
    );
    expect(object!.workspaces).toHaveLength(4);
    expect(object!.workspaces.find((entry) => entry.workspaceId === odd.id)!.role.permissions).toEqual([
      { tag: 'a"b' },
      { tag: 'c\\d' },
      { tag: 'é' },
    ]);
    expect(object!.workspaces.find((entry) => entry.workspaceId === empty.id)!.role.permissions).toEqual([]);

    const response = await api(t.app, { url: '/api/auth/user', cookie: await sessionCookie(t.db, user.id) });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((response.json as { data: CurrentUser }).data).toEqual(object);
  });

  it('a user without memberships, and one that no longer exists', async () => {
    const user = await createUser(t.db);
    expect(JSON.parse((await loadCurrentUserJson(t.db, user.id, ['pwd']))!)).toEqual(
      await loadCurrentUser(t.db, user.id, ['pwd']),
    );
    expect(await loadCurrentUserJson(t.db, '00000000-0000-4000-8000-000000000000', ['pwd'])).toBeNull();
  });
});
