import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import type { MailLanguage } from '../platform/mail/render.ts';

/**
 * The one rule for every mail's language (issue 14): the recipient's saved language, else the
 * language of whoever caused the mail, else English. The operator and the clock cause mails
 * with no language of their own (`causer: null`).
 */
export function recipientLanguage(languages: {
  recipient: MailLanguage | null | undefined;
  causer: MailLanguage | null | undefined;
}): MailLanguage {
  return languages.recipient ?? languages.causer ?? 'en';
}

/** The language of a request's page: what it sent, else the browser's preference. */
export function requestLanguage(request: FastifyRequest, chosen?: MailLanguage | null): MailLanguage {
  if (chosen) return chosen;
  return request.headers['accept-language']?.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

/** A signed-in causer's language: the one they saved, else the language their page is in. */
export function signedInCauserLanguage(request: FastifyRequest, saved: MailLanguage | null): MailLanguage {
  return saved ?? requestLanguage(request);
}

/** The signed-in `userId`'s language as a causer, read from their account. */
export async function loadCauserLanguage(
  db: Database,
  request: FastifyRequest,
  userId: string,
): Promise<MailLanguage> {
  const [user] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return signedInCauserLanguage(request, user?.language ?? null);
}

/**
 * The operator's language by the same rule: the saved language of the account whose address is
 * `OPERATOR_EMAIL`, if there is one; nobody causes an operator's notice in their language, so
 * English otherwise.
 */
export async function operatorLanguage(db: Database, operatorEmail: string): Promise<MailLanguage> {
  const [account] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.email, operatorEmail.toLowerCase()))
    .limit(1);
  return recipientLanguage({ recipient: account?.language, causer: null });
}
