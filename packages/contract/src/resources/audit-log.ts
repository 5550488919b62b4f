import { z } from 'zod';
import { subscriptionEvents } from '../domain/subscription-lifecycle.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import { idField, localizedTextRecordField, timestampField } from '../resource-kit/fields.ts';
import { workspaceIdField } from '../resource-kit/list-query.ts';
import { validationCodes as codes } from '../validation-codes.ts';

/*
 * The workspace's audit log, read through the engine (issue 34): every write of the workspace, one
 * row per changed record, newest first. It is written by the writes themselves, never through an
 * API, so its declaration has the list verb alone.
 */

/** Who made a change: a member, the operator's command line, the system (the clocks, clean-ups), a payment provider. */
export const auditActorKinds = ['member', 'operator', 'system', 'provider'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/**
 * What a row records. The engine's writes are create, update (of any field but the status),
 * delete, enable and disable (a status change); the workspace's other writes name their own steps
 * (an invitation is sent, resent, accepted, revoked; a subscription's lifecycle event by its
 * name; old rows are purged). A list exported to a file is on record too (`export`: its format,
 * search, filters and rows; decision 0037), and a file imported into it (`import`: the file's
 * name and format, its rows, and the records created, updated and unchanged; decision 0038). The
 * list filters by these.
 */
export const auditActions = [
  'create',
  'update',
  'delete',
  'enable',
  'disable',
  'invite',
  'resend',
  'accept',
  'revoke',
  'purge',
  'export',
  'import',
  // A subscription's lifecycle events, by their own names.
  ...subscriptionEvents,
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * The resources a row may name: the engine's (by key; the audit log itself when it is exported)
 * and the workspace's other areas (memberships, roles, invitations, settings, subscriptions, OAuth
 * clients, application grants, uploads). The web names each with
 * `resources.auditLog.values.resource.<key>`.
 */
export const auditResources = [
  'authorityRoles',
  'workspaceUsers',
  'brands',
  'locations',
  'taxes',
  'measurementUnits',
  'categories',
  'wasteCategories',
  'productTags',
  'variationTypes',
  'variationValues',
  'products',
  'customers',
  'exchangeRates',
  'subscriptions',
  'payments',
  'auditLog',
  'memberships',
  'roles',
  'invitations',
  'settings',
  'oauth-clients',
  'grants',
  'files',
] as const;
export type AuditResource = (typeof auditResources)[number];

/** One row of the audit log: one changed record. */
export const auditLogRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    at: timestampField,
    actorKind: z.enum(auditActorKinds),
    /** The member who made it; null for the operator, the system or a webhook. */
    actorUserId: idField.nullable(),
    /** The member's name as it is now (null for the others, or an account since removed). */
    actorName: z.string().nullable(),
    /** The request it was made in: rows of one request share it (a bulk, a product with its variants). */
    requestId: z.string().nullable(),
    address: z.string().nullable(),
    userAgent: z.string().nullable(),
    action: z.string(),
    resource: z.string(),
    /** The record's id as text (a membership's is the member's user id). */
    recordId: z.string(),
    /** The changed fields, `{ field: [before, after] }`; before is null on create, after null on delete. */
    changes: z.record(z.string(), z.array(z.unknown())),
    /**
     * The names of records the changes name by id that the reader could not otherwise name: a
     * product's changed variants' values and the types and values of its changed options, by id,
     * as they are now (null for other rows).
     */
    names: z.record(z.string(), localizedTextRecordField).nullable(),
  }),
);
export type AuditLogRecord = z.infer<typeof auditLogRecordSchema>;

/** The workspace's audit log (`GET /api/audit-log?workspaceId=…`), behind `viewAudit`. */
export const auditLogResource = defineResource({
  key: 'auditLog',
  path: 'audit-log',
  permission: 'Audit',
  menu: { group: 'settings', order: 40 },
  verbs: ['list'],
  schemas: {
    record: auditLogRecordSchema,
    create: lazySchema(() => z.object({})),
    update: lazySchema(() => z.object({})),
  },
  search: [],
  sort: ['at'],
  defaultSort: '-at',
  filters: [
    { field: 'actorUserId', kind: 'reference', resource: 'workspaceUsers' },
    { field: 'resource', kind: 'enum', values: auditResources },
    { field: 'recordId', kind: 'id' },
    { field: 'action', kind: 'enum', values: auditActions },
    { field: 'at', kind: 'dateRange' },
  ],
  hasStatus: false,
  // An exact count of a million rows takes 350 ms on PostgreSQL, of a member's 80,000 800 ms; the
  // first 1,001 matches, at most 13 ms (decision 0032).
  countLimit: 1000,
});

/**
 * How a sign-in event came about: a sign-in, a refused password, a sign-out, a password changed or
 * reset; a second step (passed or refused), a second factor added or removed, all of them reset by
 * the operator, recovery codes made anew.
 */
export const signInEventKinds = [
  'sign-in',
  'failure',
  'sign-out',
  'password-change',
  'password-reset',
  'second-factor',
  'factor-added',
  'factor-removed',
  'factors-reset',
  'recovery-codes',
] as const;
export type SignInEventKind = (typeof signInEventKinds)[number];

/** A sign-in event of a person (kept per person, not per workspace). */
export const signInEventSchema = lazySchema(() =>
  z.object({
    id: idField,
    userId: idField,
    /** The person's name (the workspace's Activity page lists its members' events). */
    userName: z.string(),
    at: timestampField,
    kind: z.enum(signInEventKinds),
    success: z.boolean(),
    address: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
);
export type SignInEvent = z.infer<typeof signInEventSchema>;

/** The most sign-ins one page of `GET /api/auth/sign-ins` and `GET /api/audit-log/sign-ins` holds. */
export const signInPageSize = 20;

/** `GET /api/audit-log/sign-ins?workspaceId=…&page=`: the sign-ins of the workspace's members, newest first. */
export const memberSignInsQuerySchema = lazySchema(() =>
  z.strictObject({
    workspaceId: workspaceIdField,
    page: z.coerce.number({ error: codes.PAGE_IS_INVALID }).int().min(1).max(1_000_000).default(1),
  }),
);
