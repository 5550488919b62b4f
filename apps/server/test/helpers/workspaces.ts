import { createHash, randomBytes } from 'node:crypto';
import { allPermissionTags, type MembershipStatus, type PermissionTag } from '@dukkan/contract';
import { type SQL, sql } from 'drizzle-orm';
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

/** The engine's resources, for the snapshot's tables. */
const snapshotResources = createAppResources().served;

/**
 * Everything a workspace owns, read straight from the database: row counts and a hash of the
 * rows (users of its members included). Equal snapshots mean nothing of the workspace changed —
 * but the engine resources named in `except` (an import's own audit row: `auditLog`). One
 * statement: each table's rows, in a fixed order, hashed as PostgreSQL writes them as text.
 */
export async function workspaceSnapshot(
  db: Database,
  workspaceId: string,
  { except = [] }: { except?: readonly string[] } = {},
) {
  const members = sql`(select ${memberships.userId} from ${memberships} where ${memberships.workspaceId} = ${workspaceId})`;
  const part = (name: string, table: SQL, order: SQL, where: SQL) =>
    sql`select ${name}::text as name, count(*)::int as rows,
      md5(coalesce(string_agg(t::text, '|' order by ${order}), '')) as hash
      from ${table} t where ${where}`;
  const parts = [
    part('workspaces', sql`${workspaces}`, sql`t.id`, sql`t.id = ${workspaceId}`),
    part('roles', sql`${roles}`, sql`t.id`, sql`t.workspace_id = ${workspaceId}`),
    part('memberships', sql`${memberships}`, sql`t.user_id`, sql`t.workspace_id = ${workspaceId}`),
    part('invites', sql`${invites}`, sql`t.user_id`, sql`t.workspace_id = ${workspaceId}`),
    part('users', sql`${users}`, sql`t.id`, sql`t.id in ${members}`),
    part('passwordTokens', sql`${passwordTokens}`, sql`t.token_hash`, sql`t.user_id in ${members}`),
    // Every engine resource's table (roles included again: harmless), in id order. Memberships
    // (the members' resource, keyed by workspace and account) are read above.
    ...snapshotResources
      .filter(
        ({ storage }) =>
          storage.table !== (memberships as unknown) && !except.includes(storage.definition.key),
      )
      .map(({ storage }) =>
        part(storage.definition.key, sql`${storage.table}`, sql`t.id`, sql`t.workspace_id = ${workspaceId}`),
      ),
  ];
  const result = await db.execute(sql.join(parts, sql` union all `));
  const tables = (result as unknown as { rows: { name: string; rows: number; hash: string }[] }).rows.sort(
    (a, b) => a.name.localeCompare(b.name),
  );
  return {
    counts: Object.fromEntries(tables.map((table) => [table.name, Number(table.rows)])),
    hash: createHash('sha256')
      .update(tables.map((table) => `${table.name}:${table.hash}`).join('\n'))
      .digest('hex'),
  };
}
