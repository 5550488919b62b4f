import type { CurrentUser, WorkspaceSummary } from '@dukkan/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { memberships, roles, userFactors, users, workspaces } from '../../db/schema/index.ts';

/**
 * The rows behind the current user: the profile, and the memberships that grant anything (active
 * ones) with their workspace and role. A role's tags come as one comma-joined string: the
 * drivers' text[] parsers cost microseconds an element, and a user in 50 workspaces with full
 * roles has 3,400 of them (tags are catalogue identifiers, never containing a comma).
 */
async function loadRows(db: Database, userId: string) {
  const [userRows, memberRows] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        phone: users.phone,
        profilePicture: users.profilePicture,
        // Shown as English until the user chooses (their mails follow the mail rule instead).
        language: sql<'en' | 'ar'>`coalesce(${users.language}, 'en')`,
        hasSecondFactor: sql<boolean>`exists (select 1 from ${userFactors} where ${userFactors.userId} = ${sql.raw('"users"."id"')})`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
    db
      .select({
        isAdmin: memberships.isAdmin,
        workspaceId: workspaces.id,
        workspaceName: workspaces.name,
        workspaceLogo: workspaces.logo,
        workspaceBaseCurrency: workspaces.baseCurrency,
        workspaceTimeZone: workspaces.timeZone,
        workspaceRequireSecondFactor: workspaces.requireSecondFactor,
        roleId: roles.id,
        roleCode: roles.code,
        roleTitle: roles.title,
        tags: sql<string | null>`array_to_string(${roles.permissions}, ',')`,
      })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .leftJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.workspaceId, memberships.workspaceId)))
      .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')))
      .orderBy(asc(workspaces.name), asc(workspaces.id)),
  ]);
  return { user: userRows[0], memberRows };
}

type MemberRow = Awaited<ReturnType<typeof loadRows>>['memberRows'][number];
type RoleRow = MemberRow & { roleId: string; roleCode: string; roleTitle: string };

const hasRole = (row: MemberRow): row is RoleRow =>
  row.roleId !== null && row.roleCode !== null && row.roleTitle !== null;
const splitTags = (joined: string | null) => (joined ? joined.split(',') : []);
const workspaceOf = (row: MemberRow): WorkspaceSummary => ({
  id: row.workspaceId,
  name: row.workspaceName,
  logo: row.workspaceLogo,
  baseCurrency: row.workspaceBaseCurrency,
  timeZone: row.workspaceTimeZone,
  requireSecondFactor: row.workspaceRequireSecondFactor,
});

/**
 * The spec's current-user shape: the profile, the workspaces the user is an active admin of,
 * and the active memberships that carry a role (an admin without a role is only in the first);
 * then whether the person has a second factor and how this session (`sessionFactors`) signed in.
 */
export async function loadCurrentUser(
  db: Database,
  userId: string,
  sessionFactors: readonly string[],
): Promise<CurrentUser | null> {
  const { user, memberRows } = await loadRows(db, userId);
  if (!user) return null;
  return {
    ...user,
    adminWorkspaces: memberRows.filter((row) => row.isAdmin).map(workspaceOf),
    workspaces: memberRows.filter(hasRole).map((row) => ({
      workspaceId: row.workspaceId,
      workspace: workspaceOf(row),
      role: {
        id: row.roleId,
        code: row.roleCode,
        title: row.roleTitle,
        permissions: splitTags(row.tags).map((tag) => ({ tag })),
      },
    })),
    sessionFactors: [...sessionFactors],
  };
}

const json = JSON.stringify;
const identifiersOnly = /^[A-Za-z,]*$/;

/**
 * Roles tend to share tag lists (a full role in every workspace), so each list's JSON is kept:
 * bounded, and keyed by the list itself, so an edited role simply has another key.
 */
const permissionsJsonCache = new Map<string, string>();
const permissionsJsonCacheSize = 500;

/** `[{"tag":"viewProducts"},…]` straight from the joined string; anything unusual goes through JSON.stringify. */
function permissionsJson(joined: string | null): string {
  if (!joined) return '[]';
  const cached = permissionsJsonCache.get(joined);
  if (cached !== undefined) return cached;
  const fragment = identifiersOnly.test(joined)
    ? `[{"tag":"${joined.replaceAll(',', '"},{"tag":"')}"}]`
    : json(splitTags(joined).map((tag) => ({ tag })));
  if (permissionsJsonCache.size >= permissionsJsonCacheSize) permissionsJsonCache.clear();
  permissionsJsonCache.set(joined, fragment);
  return fragment;
}

function workspaceJson(row: MemberRow): string {
  return `{"id":${json(row.workspaceId)},"name":${json(row.workspaceName)},"logo":${json(row.workspaceLogo)},"baseCurrency":${json(row.workspaceBaseCurrency)},"timeZone":${json(row.workspaceTimeZone)},"requireSecondFactor":${json(row.workspaceRequireSecondFactor)}}`;
}

/**
 * The same current user as `loadCurrentUser`, already serialized: `GET auth/user` is called on
 * every page load and focus, and for a user in 50 workspaces building and stringifying 3,400
 * `{ tag }` objects was most of its cost (bench/auth-user-workspaces.ts). A test holds both equal.
 */
export async function loadCurrentUserJson(
  db: Database,
  userId: string,
  sessionFactors: readonly string[],
): Promise<string | null> {
  const { user, memberRows } = await loadRows(db, userId);
  if (!user) return null;
  const adminWorkspaces = memberRows.filter((row) => row.isAdmin).map(workspaceJson);
  const roleWorkspaces = memberRows
    .filter(hasRole)
    .map(
      (row) =>
        `{"workspaceId":${json(row.workspaceId)},"workspace":${workspaceJson(row)},"role":{"id":${json(row.roleId)},"code":${json(row.roleCode)},"title":${json(row.roleTitle)},"permissions":${permissionsJson(row.tags)}}}`,
    );
  const profile = json(user);
  return `${profile.slice(0, -1)},"adminWorkspaces":[${adminWorkspaces.join(',')}],"workspaces":[${roleWorkspaces.join(',')}],"sessionFactors":${json(sessionFactors)}}`;
}
