import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlanDiscounts } from '@dukkan/contract';
import { asc, eq } from 'drizzle-orm';
import { auditEntry, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { applications, subscriptions } from '../../db/schema/index.ts';
import { uniqueViolationTarget } from '../../errors.ts';
import { hashToken } from '../../http/tokens.ts';
import { isUuid } from '../../resource-engine/queries.ts';
import {
  ApplicationError,
  applicationChangesSchema,
  applicationInputSchema,
  parseApplicationInput,
} from './application-input.ts';
import { type PlatformFiles, readLogoFile, removePlatformFile, storePlatformLogo } from './platform-files.ts';

/*
 * The operator registers the platform's applications from the command line (cli.ts calls these).
 * Each refusal is an `ApplicationError` and changes nothing.
 */

/** An application as the operator sees it: never its secret, only whether it has one. */
export interface ApplicationRecord {
  id: string;
  clientId: string;
  name: { en: string; ar: string };
  description: { en: string; ar: string };
  /** The logo's address (`/files/platform/…`), or null. */
  logo: string | null;
  homeUrl: string;
  redirectUris: string[];
  clientType: 'public' | 'confidential';
  hasSecret: boolean;
  currency: string;
  monthlyPricePerLocation: number;
  discounts: PlanDiscounts;
  trialDays: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What create, update and rotate answer; `secret` only when one was just made: shown once. */
export interface ApplicationResult {
  application: ApplicationRecord;
  secret?: string;
}

type ApplicationRow = typeof applications.$inferSelect;

function toRecord(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    clientId: row.clientId,
    name: { en: row.nameEn, ar: row.nameAr },
    description: { en: row.descriptionEn, ar: row.descriptionAr },
    logo: row.logo,
    homeUrl: row.homeUrl,
    redirectUris: row.redirectUris,
    clientType: row.clientType,
    hasSecret: row.secretHash !== null,
    currency: row.currency,
    monthlyPricePerLocation: row.monthlyPricePerLocation,
    discounts: row.discounts,
    trialDays: row.trialDays,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A confidential client's secret: 256 random bits, base64url. Only its SHA-256 is stored. A fast
 * hash is right here, unlike for passwords: a secret this random cannot be guessed from its hash
 * by trying candidates (2^256 of them), so argon2's cost would buy nothing and would slow down
 * every client authentication at the token endpoint.
 */
function newSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: hashToken(secret) };
}

/** Whether `secret` is the confidential client's current secret (compared in constant time). */
export async function applicationSecretMatches(
  db: Database,
  clientId: string,
  secret: string,
): Promise<boolean> {
  const [row] = await db
    .select({ secretHash: applications.secretHash })
    .from(applications)
    .where(eq(applications.clientId, clientId))
    .limit(1);
  if (!row?.secretHash) return false;
  const expected = Buffer.from(row.secretHash, 'hex');
  const given = Buffer.from(hashToken(secret), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const duplicate = (clientId: string) =>
  new ApplicationError('duplicateClientId', `An application with client id "${clientId}" already exists`);
const unknown = (clientIdOrId: string) =>
  new ApplicationError('notFound', `No application with client id (or id) "${clientIdOrId}"`);

/**
 * Registers an application. A confidential client gets a secret, returned here once; a public one
 * (PKCE) has none. The logo file is copied into file storage first, and removed again if the row
 * is not written.
 */
export async function createApplication(
  db: Database,
  input: unknown,
  files: PlatformFiles,
): Promise<ApplicationResult> {
  const parsed = parseApplicationInput(applicationInputSchema, input);
  const [taken] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.clientId, parsed.clientId))
    .limit(1);
  if (taken) throw duplicate(parsed.clientId);
  const logoFile = parsed.logo === undefined ? null : await readLogoFile(parsed.logo);
  const credentials = parsed.clientType === 'confidential' ? newSecret() : null;

  const logo = logoFile ? await storePlatformLogo(files, logoFile) : null;
  try {
    const [row] = await db
      .insert(applications)
      .values({
        clientId: parsed.clientId,
        nameEn: parsed.name.en,
        nameAr: parsed.name.ar,
        descriptionEn: parsed.description.en,
        descriptionAr: parsed.description.ar,
        logo,
        homeUrl: parsed.homeUrl,
        redirectUris: parsed.redirectUris,
        clientType: parsed.clientType,
        secretHash: credentials?.secretHash ?? null,
        currency: parsed.currency,
        monthlyPricePerLocation: parsed.monthlyPricePerLocation,
        discounts: parsed.discounts,
        trialDays: parsed.trialDays,
      })
      .returning();
    return {
      application: toRecord(row!),
      ...(credentials ? { secret: credentials.secret } : {}),
    };
  } catch (error) {
    await removePlatformFile(files, logo);
    // Registered at the same moment by another command.
    if (uniqueViolationTarget(error) === 'client_id') throw duplicate(parsed.clientId);
    throw error;
  }
}

/** The application by client id, or by id when given a uuid (locked for the transaction). */
async function lockApplication(db: Database, clientIdOrId: string): Promise<ApplicationRow> {
  const [row] = await db
    .select()
    .from(applications)
    .where(isUuid(clientIdOrId) ? eq(applications.id, clientIdOrId) : eq(applications.clientId, clientIdOrId))
    .for('update');
  if (!row) throw unknown(clientIdOrId);
  return row;
}

/**
 * Changes an application's fields (the client id stays). Becoming confidential makes a secret
 * (returned once); becoming public drops it. A new logo replaces the old file, removed after the
 * change is saved.
 */
export async function updateApplication(
  db: Database,
  clientIdOrId: string,
  changes: unknown,
  files: PlatformFiles,
): Promise<ApplicationResult> {
  const parsed = parseApplicationInput(applicationChangesSchema, changes);
  const logoFile = typeof parsed.logo === 'string' ? await readLogoFile(parsed.logo) : null;
  const newLogo = logoFile ? await storePlatformLogo(files, logoFile) : null;
  let saved: { row: ApplicationRow; previous: ApplicationRow; secret: string | undefined };
  try {
    saved = await db.transaction(async (tx) => {
      const previous = await lockApplication(tx, clientIdOrId);
      const clientType = parsed.clientType ?? previous.clientType;
      const credentials =
        clientType === 'confidential' && previous.clientType === 'public' ? newSecret() : null;
      const [row] = await tx
        .update(applications)
        .set({
          ...(parsed.name?.en !== undefined ? { nameEn: parsed.name.en } : {}),
          ...(parsed.name?.ar !== undefined ? { nameAr: parsed.name.ar } : {}),
          ...(parsed.description?.en !== undefined ? { descriptionEn: parsed.description.en } : {}),
          ...(parsed.description?.ar !== undefined ? { descriptionAr: parsed.description.ar } : {}),
          ...(parsed.logo !== undefined ? { logo: newLogo } : {}),
          ...(parsed.homeUrl !== undefined ? { homeUrl: parsed.homeUrl } : {}),
          ...(parsed.redirectUris !== undefined ? { redirectUris: parsed.redirectUris } : {}),
          clientType,
          secretHash: clientType === 'public' ? null : (credentials?.secretHash ?? previous.secretHash),
          ...(parsed.currency !== undefined ? { currency: parsed.currency } : {}),
          ...(parsed.monthlyPricePerLocation !== undefined
            ? { monthlyPricePerLocation: parsed.monthlyPricePerLocation }
            : {}),
          ...(parsed.discounts !== undefined
            ? { discounts: { ...previous.discounts, ...parsed.discounts } }
            : {}),
          ...(parsed.trialDays !== undefined ? { trialDays: parsed.trialDays } : {}),
          updatedAt: new Date(),
        })
        .where(eq(applications.id, previous.id))
        .returning();
      await auditApplication(tx, previous, row!);
      return { row: row!, previous, secret: credentials?.secret };
    });
  } catch (error) {
    await removePlatformFile(files, newLogo);
    throw error;
  }
  const { row, previous, secret } = saved;
  // The replaced file goes once the row no longer names it. The change is saved either way: a
  // file that cannot be removed is only unused, never a logo lost.
  if (parsed.logo !== undefined && previous.logo !== row.logo) {
    await removePlatformFile(files, previous.logo).catch(() => {});
  }
  return { application: toRecord(row), ...(secret ? { secret } : {}) };
}

/**
 * An application is the platform's, not a workspace's: its change (an OAuth client's redirect
 * URIs, type or secret) is on record in the log of every workspace subscribed to it, where the
 * members it signs in see it. The secret's values never are (`auditSecretColumns`).
 */
async function auditApplication(tx: Database, previous: ApplicationRow, row: ApplicationRow) {
  const subscribed = await tx
    .selectDistinct({ workspaceId: subscriptions.workspaceId })
    .from(subscriptions)
    .where(eq(subscriptions.applicationId, row.id));
  const entry = auditEntry(applications, '', 'oauth-clients', row.id, previous, row);
  await recordAudit(
    tx,
    subscribed.map(({ workspaceId }) => ({ ...entry, workspaceId })),
  );
}

/** Every application, by client id. */
export async function listApplications(db: Database): Promise<ApplicationRecord[]> {
  const rows = await db.select().from(applications).orderBy(asc(applications.clientId));
  return rows.map(toRecord);
}

/**
 * A new secret for a confidential client, returned once; the old one stops working at once. A
 * public client has no secret to rotate.
 */
export async function rotateApplicationSecret(db: Database, clientId: string): Promise<ApplicationResult> {
  return db.transaction(async (tx) => {
    const previous = await lockApplication(tx, clientId);
    if (previous.clientType === 'public') {
      throw new ApplicationError(
        'publicClient',
        `"${previous.clientId}" is a public client (PKCE): it has no secret to rotate`,
      );
    }
    const { secret, secretHash } = newSecret();
    const [row] = await tx
      .update(applications)
      .set({ secretHash, updatedAt: new Date() })
      .where(eq(applications.id, previous.id))
      .returning();
    await auditApplication(tx, previous, row!);
    return { application: toRecord(row!), secret };
  });
}
