import { allPermissionTags } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './helpers/api.ts';
import {
  permissionRoutes,
  type RouteTargets,
  referencesRecords,
  routeCall,
  seedTargets,
} from './helpers/route-scenarios.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import {
  addInvitedMember,
  addMember,
  createRole,
  createWorkspace,
  workspaceSnapshot,
} from './helpers/workspaces.ts';

/**
 * Tenant isolation, generated from the route table: someone who holds everything in workspace
 * A calls every workspace-scoped route with workspace B's ids and with `workspaceId` = B. Every
 * answer must be 403 or 404, and nothing of B may change. A route added later is walked too.
 */
let t: TestApp;
let a: { id: string };
let b: { id: string };
let targetsOfB: RouteTargets;
const callers: { label: string; cookie: string }[] = [];
const peopleOfB: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  a = await createWorkspace(t.db, 'Workspace A');
  b = await createWorkspace(t.db, 'Workspace B');
  // B's data: what the routes will be pointed at, plus an admin, a role in use and a pending invite.
  targetsOfB = await seedTargets(t.db, b.id);
  const adminOfB = await addMember(t.db, b.id, { isAdmin: true });
  const heldRole = await createRole(t.db, b.id, ['viewProducts']);
  const staffOfB = await addMember(t.db, b.id, { roleId: heldRole.id });
  const pending = await addInvitedMember(t.db, b.id);
  peopleOfB.push(adminOfB.user.email, staffOfB.user.email, pending.email);

  // The callers: a member of A whose role holds every tag, and an admin of A.
  const everyTag = await addMember(t.db, a.id, { tags: allPermissionTags });
  const admin = await addMember(t.db, a.id, { isAdmin: true });
  callers.push({ label: 'member of A with every tag', cookie: everyTag.cookie });
  callers.push({ label: 'admin of A', cookie: admin.cookie });
});
afterAll(async () => {
  await t?.close();
});

describe('tenant isolation matrix (every permission route × two callers)', () => {
  it('the route table has workspace-scoped routes to walk', () => {
    expect(permissionRoutes(t.app).length).toBeGreaterThanOrEqual(14);
  });

  it("with workspaceId = B, or B's ids in workspace A: only 403 or 404, and B is unchanged", async () => {
    const before = await workspaceSnapshot(t.db, b.id);
    const checked: string[] = [];
    for (const caller of callers) {
      for (const route of permissionRoutes(t.app)) {
        const name = `${caller.label}: ${route.method} ${route.url}`;

        // workspaceId = B: the caller is not a member of B.
        const inB = await api(t.app, { ...routeCall(route, targetsOfB, b.id), cookie: caller.cookie });
        expect(inB.status, `${name} with workspaceId=B → ${inB.text}`).toBe(403);

        if (referencesRecords(route)) {
          // Their own workspace, B's ids: exactly like ids that do not exist.
          const crossIds = await api(t.app, { ...routeCall(route, targetsOfB, a.id), cookie: caller.cookie });
          // A body naming B's record (a location's brand) is refused as naming no record.
          const unknownReference = crossIds.status === 400 && crossIds.text.includes('REFERENCE_NOT_FOUND');
          expect(
            unknownReference ? 404 : crossIds.status,
            `${name} in A with B's ids → ${crossIds.status} ${crossIds.text}`,
          ).toBeOneOf([403, 404]);
        } else {
          // Lists, filters and creations in A never show anything of B.
          const inA = await api(t.app, { ...routeCall(route, targetsOfB, a.id), cookie: caller.cookie });
          expect(inA.status, `${name} in A → ${inA.text}`).toBeLessThan(300);
          for (const id of [b.id, targetsOfB.memberId, targetsOfB.invitedId, targetsOfB.emptyRoleId]) {
            expect(inA.text, `${name} in A shows an id of B`).not.toContain(id);
          }
        }
        checked.push(name);
      }
    }
    expect(checked.length).toBe(permissionRoutes(t.app).length * callers.length);
    expect(await workspaceSnapshot(t.db, b.id)).toEqual(before);
    // No invitation (or anything else) was mailed to B's people.
    expect(t.mails.filter((mail) => peopleOfB.includes(mail.to))).toEqual([]);
  }, 240_000);
});
