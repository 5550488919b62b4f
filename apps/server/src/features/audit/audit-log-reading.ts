import { type ApiList, memberSignInsQuerySchema, type SignInEvent, signInPageSize } from '@dukkan/contract';
import { type AnyColumn, and, count, desc, eq, getTableName, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import {
  auditLog,
  memberships,
  signInEvents,
  users,
  variationTypes,
  variationValues,
} from '../../db/schema/index.ts';
import { parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller, requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * A column named with its table (or the table's alias): Drizzle names a column alone, and in a
 * subquery of `variation_values` inside the list of `audit_log` both have a `workspace_id`.
 */
const qualified = (table: string, column: AnyColumn) =>
  sql`${sql.identifier(table)}.${sql.identifier(column.name)}`;
const row = (column: AnyColumn) => qualified(getTableName(auditLog), column);
const value = (column: AnyColumn) => qualified('value', column);
const optionType = (column: AnyColumn) => qualified('option_type', column);

/** A type's or value's names as the row's `names` holds them: `[{ locale, value }]`, the present ones. */
const namesOf = (alias: string, table: typeof variationValues | typeof variationTypes) => sql`(
    select coalesce(jsonb_agg(jsonb_build_object('locale', name.locale, 'value', name.value)), '[]'::jsonb)
    from (values ('en', ${qualified(alias, table.nameEn)}), ('ar', ${qualified(alias, table.nameAr)}))
      as name(locale, value)
    where name.value is not null
  )`;

/**
 * The names, by id, of the variation values and types a product row names, as they are now:
 * the values its variant keys are made of (a key is its values' ids joined by '-', each 36
 * characters) and the types and values on either side of its `options`; `{ id: [{ locale, value }] }`,
 * null for any other row. The row's `changes` is JSON text (decision 0060): its `variants` and
 * `options` pairs are found in one pass over it, each side of a pair in one more, and the row's
 * distinct ids once (decision 0037: under `in`, the keys were read again for every value), then
 * joined to the workspace's values and types.
 */
const variationNames = sql`(case when ${row(auditLog.resource)} = 'products' then (
  with sides as (
    select pair.key, side.value
    from json_each(${row(auditLog.changes)}) as pair,
      json_array_elements(case when json_typeof(pair.value) = 'array' then pair.value end) as side(value)
    where pair.key in ('variants', 'options')
  ),
  options as (
    select chosen.option
    from sides, json_array_elements(case when json_typeof(sides.value) = 'array' then sides.value end)
      as chosen(option)
    where sides.key = 'options'
  ),
  named_ids as (
    select substr(variant.key, 1 + 37 * part, 36) as id
    from sides,
      json_object_keys(case when json_typeof(sides.value) = 'object' then sides.value end) as variant(key),
      generate_series(0, length(variant.key) / 37) as part
    where sides.key = 'variants'
    union
    select options.option ->> 'typeId' from options
    union
    select value_id
    from options,
      json_array_elements_text(case when json_typeof(options.option -> 'valueIds') = 'array'
        then options.option -> 'valueIds' end) as value_id
  )
  select jsonb_object_agg(named.id, named.names)
  from (
    select ${value(variationValues.id)}::text as id, ${namesOf('value', variationValues)} as names
    from named_ids
    join ${variationValues} as value
      on ${value(variationValues.workspaceId)} = ${row(auditLog.workspaceId)}
      and ${value(variationValues.id)}::text = named_ids.id
    union all
    select ${optionType(variationTypes.id)}::text, ${namesOf('option_type', variationTypes)}
    from named_ids
    join ${variationTypes} as option_type
      on ${optionType(variationTypes.workspaceId)} = ${row(auditLog.workspaceId)}
      and ${optionType(variationTypes.id)}::text = named_ids.id
  ) as named
) end)`;

/**
 * The audit log is read through the engine (`GET /api/audit-log`, list only, behind viewAudit):
 * its rows with the acting member's name as it is now, and the names of the values a product's
 * changed variants are made of and of the types and values its changed options name. The rows are
 * written by the writes themselves, in their transactions.
 */
export const auditLogCustomization: ResourceCustomization = {
  key: 'auditLog',
  computed: {
    actorName: sql`(select ${users.name} from ${users} where ${users.id} = ${auditLog.actorUserId})`,
    names: variationNames,
  },
};

const signInColumns = {
  id: signInEvents.id,
  userId: signInEvents.userId,
  userName: users.name,
  at: signInEvents.at,
  kind: signInEvents.kind,
  success: signInEvents.success,
  address: signInEvents.address,
  userAgent: signInEvents.userAgent,
};

type SignInRow = Omit<SignInEvent, 'at'> & { at: Date };
const signInEvent = (row: SignInRow): SignInEvent => ({ ...row, at: row.at.toISOString() });

/** A person's own latest sign-in events, newest first (their profile). */
async function ownSignIns(db: Database, userId: string): Promise<SignInEvent[]> {
  const rows = await db
    .select(signInColumns)
    .from(signInEvents)
    .innerJoin(users, eq(users.id, signInEvents.userId))
    .where(eq(signInEvents.userId, userId))
    .orderBy(desc(signInEvents.at), desc(signInEvents.id))
    .limit(signInPageSize);
  return rows.map(signInEvent);
}

/**
 * A page of the sign-in events of the workspace's members (active or disabled; an invitation not
 * yet accepted is no member), newest first: the workspace's Activity page.
 */
async function memberSignIns(db: Database, workspaceId: string, page: number): Promise<ApiList<SignInEvent>> {
  const members = db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), ne(memberships.status, 'invited')));
  const ofMembers = inArray(signInEvents.userId, members);
  const [rows, [counted]] = await Promise.all([
    db
      .select(signInColumns)
      .from(signInEvents)
      .innerJoin(users, eq(users.id, signInEvents.userId))
      .where(ofMembers)
      .orderBy(desc(signInEvents.at), desc(signInEvents.id))
      .limit(signInPageSize)
      .offset((page - 1) * signInPageSize),
    db.select({ total: count() }).from(signInEvents).where(ofMembers),
  ]);
  return {
    data: rows.map(signInEvent),
    meta: { total: Number(counted?.total ?? 0), page, pageSize: signInPageSize },
  };
}

/**
 * The sign-in events people read: their own (`GET /api/auth/sign-ins`, signed in; only their own),
 * and a workspace's members' (`GET /api/audit-log/sign-ins?workspaceId=`, behind viewAudit like
 * the audit log itself).
 */
export function registerSignInReadingRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context;

  app.get('/api/auth/sign-ins', { config: { access: access.signedIn } }, async (request) => {
    return { data: await ownSignIns(db, requestUser(request).userId) };
  });

  app.get(
    '/api/audit-log/sign-ins',
    { config: { access: access.permission({ and: ['viewAudit'] }) } },
    async (request) => {
      const { page } = parseInput(memberSignInsQuerySchema, request.query);
      return memberSignIns(db, requestCaller(request).workspaceId, page);
    },
  );
}
