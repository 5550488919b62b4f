import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brands, roles, users } from '../src/db/schema/index.ts';
import { seedTargets } from './helpers/route-scenarios.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, workspaceSnapshot } from './helpers/workspaces.ts';

/**
 * The snapshot the "nothing changed" checks compare (the permission matrix's refusals, tenant
 * isolation, imports' dry runs): it sees a change of the workspace's own rows, its members'
 * accounts and its roles, and nothing of another workspace.
 */
let t: TestApp;
useTestApp((app) => {
  t = app;
});

describe('workspaceSnapshot', () => {
  it("changes with a record, a member's account or a role of the workspace, not with another workspace", async () => {
    const workspace = await createWorkspace(t.db);
    const other = await createWorkspace(t.db);
    const targets = await seedTargets(t.db, workspace.id);
    const member = await addMember(t.db, workspace.id, { tags: ['viewBrands'] });
    const first = await workspaceSnapshot(t.db, workspace.id);
    expect(first.counts).toMatchObject({ workspaces: 1, brands: 2 });
    expect(await workspaceSnapshot(t.db, workspace.id)).toEqual(first);

    await addMember(t.db, other.id, { tags: [] });
    expect(await workspaceSnapshot(t.db, workspace.id)).toEqual(first);

    const seen: string[] = [first.hash];
    await t.db.update(brands).set({ code: 'CHANGED' }).where(eq(brands.id, targets.records.brands!));
    seen.push((await workspaceSnapshot(t.db, workspace.id)).hash);
    await t.db.update(users).set({ name: 'Renamed' }).where(eq(users.id, member.user.id));
    seen.push((await workspaceSnapshot(t.db, workspace.id)).hash);
    await t.db.update(roles).set({ permissions: [] }).where(eq(roles.id, member.roleId!));
    seen.push((await workspaceSnapshot(t.db, workspace.id)).hash);
    expect(new Set(seen).size).toBe(4);
  });
});
