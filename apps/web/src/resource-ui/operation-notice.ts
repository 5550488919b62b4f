import type { ReactNode } from 'react';

/** An operation of the generic list page whose dialog may say what it changes beyond the record. */
export type NoticedOperation =
  | { kind: 'create' }
  | { kind: 'setStatus'; record: Record<string, unknown>; status: 'active' | 'inactive' }
  | { kind: 'delete'; record: Record<string, unknown> };

/** What each operation's dialog says besides its own words, or null for nothing. */
export type OperationNoticeOf = (operation: NoticedOperation) => ReactNode | null;

/**
 * A resource's declared hook on the generic page (`app/operation-notices.ts`): called once by the
 * list page, like any hook (it may fetch what the notices are computed from), it tells what an
 * operation changes elsewhere — a location created, enabled, disabled or deleted moves the next
 * invoice of the workspace's subscriptions. The create form shows it above its fields, the delete
 * confirmation under its question; enabling or disabling, done at once otherwise, asks first when
 * there is something to say.
 */
export type UseOperationNotice = () => OperationNoticeOf;

const nothing: OperationNoticeOf = () => null;
/** The hook of a resource that declares none. */
export const useNoOperationNotice: UseOperationNotice = () => nothing;
