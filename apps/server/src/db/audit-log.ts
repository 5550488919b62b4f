import { AsyncLocalStorage } from 'node:async_hooks';
import { getTableColumns, getTableName, type SQL, sql, type Table } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';
import { timeOrderedId } from './ids.ts';
import {
  type AuditAction,
  type AuditActorKind,
  type AuditChanges,
  auditDerivedColumns,
  auditLog,
  auditSecretColumns,
  type SignInEventKind,
  signInEvents,
} from './schema/index.ts';

/*
 * The audit log's writing side (docs/architecture.md, "The audit log"): every write of a
 * workspace's data adds one row per changed record in the write's own transaction, naming who
 * (the actor of the request, the command line or the system's work, `auditActor`), what
 * (resource, record, action) and the changed fields, `{ field: [before, after] }`, with the
 * secret columns (`auditSecretColumns`) left out. A write that changes nothing adds no row.
 */

/** Who is acting, with the request they act through (its id, address and user agent). */
export interface AuditActor {
  kind: AuditActorKind;
  userId: string | null;
  requestId: string | null;
  address: string | null;
  userAgent: string | null;
}

/**
 * The actor of the running work: what `asAuditActor` set, else a request's (`runAsRequest`: read
 * when a row is written, once the access guard found the session), else the system.
 */
const actors = new AsyncLocalStorage<{
  actor?: AuditActor;
  request?: () => AuditActor;
  /** Set by `withoutAuditRows`: this work's writes are undone whatever they are. */
  unrecorded?: boolean;
}>();

const systemActor: AuditActor = {
  kind: 'system',
  userId: null,
  requestId: null,
  address: null,
  userAgent: null,
};

/** The actor of the running work (the system's when nothing set one). */
export function auditActor(): AuditActor {
  const store = actors.getStore();
  return store?.actor ?? store?.request?.() ?? systemActor;
}

/** Runs `work` (a request's handling) with `actor` telling who acts, asked when a row is written. */
export function runAsRequest<T>(actor: () => AuditActor, work: () => T): T {
  return actors.run({ request: actor }, work);
}

/** Runs `work` as a given actor: an import's job, run later as the request that queued it. */
export function asRecordedActor<T>(actor: AuditActor, work: () => T): T {
  return actors.run({ actor }, work);
}

/** Runs `work` as the operator's command line or the system's work (`kind`). */
export function asAuditActor<T>(kind: 'operator' | 'system', work: () => T): T {
  return actors.run({ actor: { ...systemActor, kind } }, work);
}

let recording = true;

/**
 * Runs `work`, as the running actor, without writing audit rows: an import's dry run, whose
 * transaction is rolled back whatever it wrote, so its rows would only be written to be undone
 * (decision 0054). Nothing else calls it: a write that is kept is always recorded.
 */
export function withoutAuditRows<T>(work: () => T): T {
  return actors.run({ ...actors.getStore(), unrecorded: true }, work);
}

/** Whether the running work's writes are recorded (not in a dry run, nor with the benchmark's switch off). */
export function auditRecorded(): boolean {
  return recording && actors.getStore()?.unrecorded !== true;
}

/**
 * Turns recording off and on: for the cost benchmark only (`AUDIT_LOG=off`, read by `bench/`),
 * which measures writes with and without the log. Nothing else calls it.
 */
export function setAuditRecording(on: boolean) {
  recording = on;
}

/** A table's fields (column property names) an audit row leaves out, and those it redacts. */
export interface AuditFieldRules {
  /**
   * Never in `changes`: the id (the row's `record_id` already names the record), the timestamps,
   * the workspace, generated and derived columns.
   */
  skipped: ReadonlySet<string>;
  /** Secrets (`auditSecretColumns`): a change is on record as `[redacted, redacted]`, never the values. */
  secret: ReadonlySet<string>;
}

/** What an audit row holds in place of a secret's value. */
export const redacted = '(secret)';

const rulesByTable = new WeakMap<Table, AuditFieldRules>();

/** The table's skipped and secret fields, from its columns and `auditSecretColumns`, `auditDerivedColumns`. */
export function auditFieldRules(table: Table): AuditFieldRules {
  let rules = rulesByTable.get(table);
  if (!rules) {
    const name = getTableName(table);
    const secretColumns = new Set(auditSecretColumns[name] ?? []);
    const derived = new Set(auditDerivedColumns[name] ?? []);
    const columns = Object.entries(getTableColumns(table));
    rules = {
      secret: new Set(
        columns.filter(([, column]) => secretColumns.has(column.name)).map(([property]) => property),
      ),
      skipped: new Set(
        columns
          .filter(
            ([property, column]) =>
              derived.has(column.name) ||
              ['id', 'createdAt', 'updatedAt', 'workspaceId'].includes(property) ||
              column.generated !== undefined ||
              column.name === 'search_text',
          )
          .map(([property]) => property),
      ),
    };
    rulesByTable.set(table, rules);
  }
  return rules;
}

/** A value as JSON holds it: dates as ISO text, undefined as null. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value;
}

const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * The fields that differ between two states of a record, `{ field: [before, after] }` (a missing
 * state: every field of the other against null), leaving out the skipped fields and giving a
 * secret's values as `redacted` (null stays null: a secret set or dropped says so); null when none differ.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  rules: AuditFieldRules = { skipped: new Set(), secret: new Set() },
): AuditChanges | null {
  if (!before || !after) return oneSided(before, after, rules);
  const changes: AuditChanges = {};
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const field of fields) {
    if (rules.skipped.has(field)) continue;
    const from = plain(before[field]);
    const to = plain(after[field]);
    if (same(from, to)) continue;
    changes[field] = rules.secret.has(field)
      ? [from === null ? null : redacted, to === null ? null : redacted]
      : [from, to];
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * `changedFields` of a create (no before) or a delete (no after): every field the one state
 * holds, but null, against null. A bulk's 500 creates take 0.17 ms this way, 0.50 ms compared
 * field by field with an absent state (decision 0059).
 */
function oneSided(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  rules: AuditFieldRules,
): AuditChanges | null {
  const state = before ?? after;
  if (!state) return null;
  const changes: AuditChanges = {};
  let changed = false;
  for (const field of Object.keys(state)) {
    if (rules.skipped.has(field)) continue;
    const value = plain(state[field]);
    if (value === null) continue;
    const shown = rules.secret.has(field) ? redacted : value;
    changes[field] = before ? [shown, null] : [null, shown];
    changed = true;
  }
  return changed ? changes : null;
}

/** One record's change, as a feature names it. */
export interface AuditEntry {
  workspaceId: string;
  action: AuditAction;
  resource: string;
  recordId: string;
  /** Null or empty: nothing changed, no row. */
  changes: AuditChanges | null;
  /** The actor's user when it is not the request's session (an invitation accepted by its link). */
  actorUserId?: string | null;
}

/**
 * Rows per statement: 5,000 rows of an import's chunk are one JSON parameter of a few megabytes.
 */
const rowsPerInsert = 5_000;

/** The user an entry's row names: its own (`actorUserId`, even null) or the actor's. */
const actorUserOf = (entry: AuditEntry, actor: AuditActor) =>
  entry.actorUserId !== undefined ? entry.actorUserId : actor.userId;

/** Entries that share every column but their record and changes: one statement's rows. */
interface AuditRowGroup {
  workspaceId: string;
  actorUserId: string | null;
  action: AuditAction;
  resource: string;
  entries: AuditEntry[];
}

/** The entries by what their rows share (a bulk's are one group; a mixed bulk update's a few). */
function groupedEntries(entries: readonly AuditEntry[], actor: AuditActor): AuditRowGroup[] {
  const groups = new Map<string, AuditRowGroup>();
  for (const entry of entries) {
    const actorUserId = actorUserOf(entry, actor);
    const key = `${entry.workspaceId} ${actorUserId} ${entry.action} ${entry.resource}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        workspaceId: entry.workspaceId,
        actorUserId,
        action: entry.action,
        resource: entry.resource,
        entries: [],
      };
      groups.set(key, group);
    }
    group.entries.push(entry);
  }
  return [...groups.values()];
}

/**
 * Writes the entries that changed something, one row each, in `db` — the write's transaction —
 * as the running actor (`auditActor`). One row is one plain insert. More are written by one
 * `INSERT … SELECT FROM json_to_recordset(…)` per group of rows sharing their workspace, actor,
 * action and resource (a bulk's 500 rows are one): those columns bound once, each row's id,
 * record and changes in one JSON parameter: the statement of a bulk's 500 rows takes a fifth
 * less than with a text array per column, as it was written before (decision 0056). Each row's
 * changes is kept as the text it is in that parameter, never built into jsonb (decision 0060).
 */
export async function recordAudit(db: Database, entries: readonly AuditEntry[]): Promise<void> {
  if (!auditRecorded()) return;
  const actor = auditActor();
  const written = entries.filter((entry) => entry.changes && Object.keys(entry.changes).length > 0);
  if (written.length === 1) {
    const [entry] = written;
    await db.insert(auditLog).values({
      id: timeOrderedId(),
      workspaceId: entry!.workspaceId,
      actorKind: actor.kind,
      actorUserId: actorUserOf(entry!, actor),
      requestId: actor.requestId,
      address: actor.address,
      userAgent: actor.userAgent,
      action: entry!.action,
      resource: entry!.resource,
      recordId: entry!.recordId,
      changes: entry!.changes!,
    });
    return;
  }
  for (const group of groupedEntries(written, actor)) {
    for (let start = 0; start < group.entries.length; start += rowsPerInsert) {
      const rows = group.entries
        .slice(start, start + rowsPerInsert)
        .map((entry) => ({ id: timeOrderedId(), record_id: entry.recordId, changes: entry.changes }));
      await db.execute(sql`
        insert into ${auditLog} (id, workspace_id, actor_kind, actor_user_id, request_id, address,
          user_agent, action, resource, record_id, changes)
        select e.id, ${group.workspaceId}::uuid, ${actor.kind}::text, ${group.actorUserId}::uuid,
          ${actor.requestId}::text, ${actor.address}::text, ${actor.userAgent}::text,
          ${group.action}::text, ${group.resource}::text, e.record_id, e.changes
        from json_to_recordset(${JSON.stringify(rows)}::json) as e(id uuid, record_id text, changes json)`);
    }
  }
}

/**
 * Writes, in `db` as the running actor, one row for each row of `changed` — a query whose columns
 * are `record_id` (text) and `changes` (jsonb; `'{}'` writes none) — as `action` on `resource`'s
 * records: the side effects of a set-based write (a new base currency's prices), recorded in one
 * statement however many records it changed. Their ids are random rather than time-ordered.
 */
export async function recordAuditFrom(
  db: Database,
  target: { workspaceId: string; action: AuditAction; resource: string },
  changed: SQL,
): Promise<void> {
  if (!auditRecorded()) return;
  const actor = auditActor();
  await db.execute(sql`
    insert into ${auditLog} (id, workspace_id, actor_kind, actor_user_id, request_id, address,
      user_agent, action, resource, record_id, changes)
    select gen_random_uuid(), ${target.workspaceId}::uuid, ${actor.kind}::text, ${actor.userId}::uuid,
      ${actor.requestId}::text, ${actor.address}::text, ${actor.userAgent}::text, ${target.action}::text,
      ${target.resource}::text, changed.record_id, changed.changes::json
    from (${changed}) as changed
    where changed.changes <> '{}'::jsonb`);
}

/**
 * One record's change from its two states (`changedFields`, leaving out the table's secret and
 * bookkeeping columns): create (no before), delete (no after), update — or enable/disable when
 * its `status` is what changed.
 */
export function auditEntry(
  table: Table,
  workspaceId: string,
  resource: string,
  recordId: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  extra?: AuditChanges | null,
): AuditEntry {
  const changes = changedFields(before, after, auditFieldRules(table));
  const all = extra && Object.keys(extra).length > 0 ? { ...changes, ...extra } : changes;
  return { workspaceId, resource, recordId, action: actionOf(before, after, all), changes: all };
}

/** create, delete, enable, disable or update. */
export function actionOf(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  changes: AuditChanges | null,
): AuditAction {
  if (!before) return 'create';
  if (!after) return 'delete';
  const status = changes?.status;
  if (status && Object.keys(changes).length === 1) {
    if (status[1] === 'active') return 'enable';
    if (status[1] === 'inactive') return 'disable';
  }
  return 'update';
}

/**
 * A person's sign-in event, with the running request's id, address and user agent (never for an
 * unknown email address).
 */
export async function recordSignInEvent(
  db: Database,
  userId: string,
  kind: SignInEventKind,
  success: boolean,
): Promise<void> {
  if (!recording) return;
  const { requestId, address, userAgent } = auditActor();
  await db.insert(signInEvents).values({ userId, kind, success, requestId, address, userAgent });
}

/**
 * Runs `work`, recording the change it makes to one row of `table` (found by `where`) as
 * `resource`'s record `recordId`: the row is read before and after, in `db` (the write's
 * transaction). `action` names a feature's own step (`invite`, `accept`); without it the change
 * is a create, update, delete, enable or disable as the two states say.
 */
export async function auditedChange<T>(
  db: Database,
  table: PgTable,
  target: {
    workspaceId: string;
    resource: string;
    recordId: string;
    where: SQL | undefined;
    action?: AuditAction;
    actorUserId?: string | null;
  },
  work: () => Promise<T>,
): Promise<T> {
  if (!auditRecorded()) return work();
  const read = async () =>
    ((await db.select().from(table).where(target.where).limit(1))[0] as
      | Record<string, unknown>
      | undefined) ?? null;
  const before = await read();
  const result = await work();
  const after = await read();
  const entry = auditEntry(table, target.workspaceId, target.resource, target.recordId, before, after);
  await recordAudit(db, [
    {
      ...entry,
      ...(target.action ? { action: target.action } : {}),
      ...(target.actorUserId !== undefined ? { actorUserId: target.actorUserId } : {}),
    },
  ]);
  return result;
}
