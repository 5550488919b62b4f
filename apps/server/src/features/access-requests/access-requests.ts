import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { accessRequests, users } from '../../db/schema/index.ts';
import { recipientLanguage } from '../../http/mail-language.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { ResourceEngine } from '../../resource-engine/registry.ts';
import {
  createWorkspaceWithAdmin,
  deliverMail,
  type MailDelivery,
  mailAdminInvitation,
  type WorkspaceWithMailedAdmin,
} from '../workspaces/create-workspace.ts';
import { accessRequestRejectedMail } from './access-request-mails.ts';

type AccessRequest = typeof accessRequests.$inferSelect;
type AccessRequestStatus = AccessRequest['status'];
export const accessRequestStatuses = [
  'pending',
  'approved',
  'rejected',
] as const satisfies readonly AccessRequestStatus[];

/** An access request that cannot be decided: unknown, or decided already. */
export class AccessRequestError extends Error {
  override name = 'AccessRequestError';
  constructor(
    readonly reason: 'notFound' | 'notPending',
    message: string,
  ) {
    super(message);
  }
}

/** Access requests, oldest first (all of them, or those with `status`). */
export async function listAccessRequests(
  db: Database,
  status?: AccessRequestStatus,
): Promise<AccessRequest[]> {
  return db
    .select()
    .from(accessRequests)
    .where(status === undefined ? undefined : eq(accessRequests.status, status))
    .orderBy(asc(accessRequests.createdAt), asc(accessRequests.id));
}

async function findPendingRequest(db: Database, id: string): Promise<AccessRequest> {
  const [request] = await db.select().from(accessRequests).where(eq(accessRequests.id, id)).limit(1);
  if (!request) throw new AccessRequestError('notFound', `No access request with id ${id}`);
  if (request.status !== 'pending') {
    throw new AccessRequestError('notPending', `Access request ${id} is already ${request.status}`);
  }
  return request;
}

const noLongerPending = (id: string) =>
  new AccessRequestError('notPending', `Access request ${id} is no longer pending`);

interface ApprovedAccessRequest {
  request: AccessRequest;
  /** The workspace named after the company, and its admin's invitation (link and mail). */
  workspace: WorkspaceWithMailedAdmin;
}

/**
 * Approves a pending request: marks it approved and creates the workspace named after the
 * company with a role holding every permission, in one transaction; then invites the
 * requester as its admin by mail, in their language (a failed mail is reported, not thrown).
 */
export async function approveAccessRequest(
  services: { db: Database; mailer: Mailer; publicUrl: string; resources: ResourceEngine },
  id: string,
  now: Date,
): Promise<ApprovedAccessRequest> {
  const { db, mailer, publicUrl, resources } = services;
  const request = await findPendingRequest(db, id);
  const created = await db.transaction(async (tx) => {
    // Only a still-pending request is approved: two operators at once cannot both succeed.
    const [claimed] = await tx
      .update(accessRequests)
      .set({ status: 'approved', updatedAt: now })
      .where(and(eq(accessRequests.id, id), eq(accessRequests.status, 'pending')))
      .returning({ id: accessRequests.id });
    if (!claimed) throw noLongerPending(id);
    return createWorkspaceWithAdmin(
      tx,
      resources,
      {
        name: request.companyName,
        adminEmail: request.email,
        adminLanguage: request.language,
        adminProfile: { name: request.name, phone: request.phone },
      },
      now,
    );
  });
  const workspace = await mailAdminInvitation(mailer, publicUrl, created, request.email, request.language);
  return { request, workspace };
}

interface RejectedAccessRequest {
  request: AccessRequest;
  mail: MailDelivery;
}

/**
 * Rejects a pending request and tells the requester by mail: the operator has no language of
 * their own, so the requester's saved one if they have an account, else their request's page's.
 */
export async function rejectAccessRequest(
  services: { db: Database; mailer: Mailer },
  id: string,
  now: Date,
): Promise<RejectedAccessRequest> {
  const { db, mailer } = services;
  const request = await findPendingRequest(db, id);
  const [rejected] = await db
    .update(accessRequests)
    .set({ status: 'rejected', updatedAt: now })
    .where(and(eq(accessRequests.id, id), eq(accessRequests.status, 'pending')))
    .returning({ id: accessRequests.id });
  if (!rejected) throw noLongerPending(id);
  const [account] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.email, request.email))
    .limit(1);
  const mail = await deliverMail(mailer, {
    to: request.email,
    ...accessRequestRejectedMail(
      recipientLanguage({ recipient: account?.language ?? request.language, causer: null }),
    ),
  });
  return { request, mail };
}
