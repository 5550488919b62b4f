import { createHash, randomBytes } from 'node:crypto';
import { allPermissionTags, type MembershipStatus, type PermissionTag } from '@dukkan/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { invites, memberships, passwordTokens, roles, users, workspaces } from '../../src/db/schema/index.ts';
import { createSession, sessionCookieName } from '../../src/features/auth/sessions.ts';
import { createToken } from '../../src/features/auth/tokens.ts';
import { createAppResources } from '../../src/resources.ts';
import { createUser, type TestUser } from './api.ts';

let counter = 0;
/** A short text no other call of this test run returns. */
export function unique(prefix = 'x'): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(2).toString('hex')}`;
}

export async function createWorkspace(
  db: Database,
  name = unique('Store '),
): Promise<{ id: string; name: string }> {
  const [workspace] = await db
    .insert(workspaces)
    .values({ name })
    .returning({ id: workspaces.id, name: workspaces.name });
  return workspace!;
}

export async function createRole(
  db: Database,
  workspaceId: string,
  permissions: readonly string[] = [],
  fields: { code?: string; title?: string } = {},
): Promise<{ id: string; code: string; permissions: string[] }> {
  const [role] = await db
    .insert(roles)
    .values({
      workspaceId,
      code: fields.code ?? unique('role-'),
      title: fields.title ?? unique('Role '),
      permissions: [...permissions],
    })
    .returning({ id: roles.id, code: roles.code, permissions: roles.permissions });
  return role!;
}

interface MemberOptions {
  /** The member's role is a new role with these tags (none: no role). */
  tags?: readonly string[];
  roleId?: string;
  isAdmin?: boolean;
  status?: MembershipStatus;
  code?: string;
  user?: TestUser;
  name?: string;
  email?: string;
  /** The client ids on the membership (none unless told). */
  applications?: readonly string[];
}

export interface TestMember {
  user: TestUser;
  roleId: string | null;
  /** A `Cookie` header value of a fresh session of this user. */
  cookie: string;
}

/** A signed-in session written straight to the database (no argon2 on the way). */
export async function sessionCookie(db: Database, userId: string): Promise<string> {
  const { token } = await createSession(db, userId, 1);
  return `${sessionCookieName}=${token}`;
}

/** A user (new unless given) who is a member of the workspace, with a session cookie. */
export async function addMember(
  db: Database,
  workspaceId: string,
  options: MemberOptions = {},
): Promise<TestMember> {
  const user = options.user ?? (await createUser(db, { name: options.name, email: options.email }));
  const roleId =
    options.roleId ?? (options.tags ? (await createRole(db, workspaceId, options.tags)).id : null);
  await db.insert(memberships).values({
    workspaceId,
    userId: user.id,
    roleId,
    isAdmin: options.isAdmin ?? false,
    status: options.status ?? 'active',
    code: options.code,
    applications: [...(options.applications ?? [])],
  });
  return { user, roleId, cookie: await sessionCookie(db, user.id) };
}

/** A pending invitation of a new, password-less person, with its token. */
export async function addInvitedMember(
  db: Database,
  workspaceId: string,
  options: { roleId?: string | null; expiresAt?: Date; isAdmin?: boolean } = {},
): Promise<{ userId: string; email: string; token: string }> {
  const email = `${unique('invitee')}@example.com`;
  const [user] = await db.insert(users).values({ email, name: 'Invitee' }).returning({ id: users.id });
  await db.insert(memberships).values({
    workspaceId,
    userId: user!.id,
    roleId: options.roleId ?? null,
    isAdmin: options.isAdmin ?? false,
    status: 'invited',
  });
  const { token, tokenHash } = createToken();
  await db.insert(invites).values({
    tokenHash,
    workspaceId,
    userId: user!.id,
    expiresAt: options.expiresAt ?? new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
  });
  return { userId: user!.id, email, token };
}

/** Every tag of the catalogue but these. */
export function tagsExcept(excluded: readonly string[]): PermissionTag[] {
  return allPermissionTags.filter((tag) => !excluded.includes(tag));
}

/**
 * Everything a workspace owns, read straight from the database: row counts and a SHA-256 of the
 * rows (users of its members included). Equal snapshots mean nothing of the workspace changed —
 * but the engine resources named in `except` (an import's own audit row: `auditLog`).
 */
export async function workspaceSnapshot(
  db: Database,
  workspaceId: string,
  { except = [] }: { except?: readonly string[] } = {},
) {
  const workspaceRows = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  const roleRows = await db
    .select()
    .from(roles)
    .where(eq(roles.workspaceId, workspaceId))
    .orderBy(asc(roles.id));
  const memberRows = await db
    .select()
    .from(memberships)
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(memberships.userId));
  const inviteRows = await db
    .select()
    .from(invites)
    .where(eq(invites.workspaceId, workspaceId))
    .orderBy(asc(invites.userId));
  const userIds = memberRows.map((row) => row.userId);
  const userRows =
    userIds.length === 0
      ? []
      : await db.select().from(users).where(inArray(users.id, userIds)).orderBy(asc(users.id));
  const tokenRows =
    userIds.length === 0
      ? []
      : await db
          .select({ tokenHash: passwordTokens.tokenHash })
          .from(passwordTokens)
          .where(inArray(passwordTokens.userId, userIds))
          .orderBy(asc(passwordTokens.tokenHash));
  // Every engine resource's table (roles included again: harmless), in id order.
  const resourceRows: Record<string, unknown[]> = {};
  for (const { storage } of createAppResources().served) {
    // Memberships (the members' resource, keyed by workspace and account) are read above.
    if (storage.table === (memberships as unknown)) continue;
    if (except.includes(storage.definition.key)) continue;
    resourceRows[storage.definition.key] = await db
      .select()
      .from(storage.table)
      .where(eq(storage.table.workspaceId, workspaceId))
      .orderBy(asc(storage.table.id));
  }
  const content = { workspaceRows, roleRows, memberRows, inviteRows, userRows, tokenRows, resourceRows };
  return {
    counts: {
      workspaces: workspaceRows.length,
      roles: roleRows.length,
      memberships: memberRows.length,
      invites: inviteRows.length,
      users: userRows.length,
      passwordTokens: tokenRows.length,
      ...Object.fromEntries(Object.entries(resourceRows).map(([key, rows]) => [key, rows.length])),
    },
    hash: createHash('sha256').update(JSON.stringify(content)).digest('hex'),
  };
}
