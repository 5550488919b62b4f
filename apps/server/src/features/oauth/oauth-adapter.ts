import { and, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oauthModels } from '../../db/schema/index.ts';

/*
 * oidc-provider's storage on Drizzle: every model in `oauth_models`, on PGlite and PostgreSQL
 * alike, so every instance of the server sees the same codes, tokens and sessions. Clients are not
 * stored here: they are the platform's applications (see `clients.ts`).
 */

/** The models whose `consume` must win once: a code, a rotated refresh token. */
const consumable = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/**
 * What the provider's ids, uids and user codes are made of (nanoid, base64url). Anything else a
 * request brings (a NUL, say, which PostgreSQL refuses in text) names nothing and is never sent.
 */
const plausibleKey = /^[A-Za-z0-9_-]{1,512}$/;

type FindClient = (clientId: string) => Promise<AdapterPayload | undefined>;

/** The adapter factory oidc-provider takes (`adapter` option): one adapter per model name. */
export function drizzleAdapter(db: Database, findClient: FindClient) {
  return (model: string): Adapter => {
    if (model === 'Client') return clientAdapter(findClient);
    const byId = (id: string) => and(eq(oauthModels.model, model), eq(oauthModels.id, id));
    // The provider's clock (JavaScript's) decides what has expired, here as in its own checks.
    const live = () => or(isNull(oauthModels.expiresAt), gt(oauthModels.expiresAt, new Date()));
    const payloadOf = (row: { payload: Record<string, unknown>; consumedAt: Date | null } | undefined) =>
      row
        ? ({
            ...row.payload,
            ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
          } as AdapterPayload)
        : undefined;
    const findWhere = async (key: string, condition: SQL) => {
      if (!plausibleKey.test(key)) return undefined;
      const [row] = await db
        .select({ payload: oauthModels.payload, consumedAt: oauthModels.consumedAt })
        .from(oauthModels)
        .where(and(eq(oauthModels.model, model), condition, live()))
        .limit(1);
      return payloadOf(row);
    };

    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          payload: payload as Record<string, unknown>,
          // A grant's own row is found by its id, with everything issued under it.
          grantId: payload.grantId ?? (model === 'Grant' ? id : null),
          uid: payload.uid ?? null,
          userCode: payload.userCode ?? null,
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        };
        await db
          .insert(oauthModels)
          .values({ model, id, ...values })
          .onConflictDoUpdate({ target: [oauthModels.model, oauthModels.id], set: values });
      },
      find: (id) => findWhere(id, eq(oauthModels.id, id)),
      findByUid: (uid) => findWhere(uid, eq(oauthModels.uid, uid)),
      findByUserCode: (userCode) => findWhere(userCode, eq(oauthModels.userCode, userCode)),
      async consume(id) {
        // One statement decides: of two requests redeeming the same code (or rotating the same
        // refresh token) at once, only the one that sets `consumed_at` goes on to get tokens.
        const won = await db
          .update(oauthModels)
          .set({ consumedAt: new Date() })
          .where(and(byId(id), isNull(oauthModels.consumedAt)))
          .returning({ id: oauthModels.id });
        if (won.length === 0 && consumable.has(model)) {
          throw new errors.InvalidGrant(`${model} already consumed`);
        }
      },
      async destroy(id) {
        await db.delete(oauthModels).where(byId(id));
      },
      async revokeByGrantId(grantId) {
        await db.delete(oauthModels).where(eq(oauthModels.grantId, grantId));
      },
    };
  };
}

/** Clients are read from the applications, never written through the provider. */
function clientAdapter(findClient: FindClient): Adapter {
  const unsupported = async () => {
    throw new Error('Clients are the platform applications: change them with the operator commands');
  };
  return {
    find: findClient,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: unsupported,
    consume: unsupported,
    destroy: unsupported,
    revokeByGrantId: unsupported,
  };
}

/** Removes expired rows (codes, tokens, sessions past their life); returns how many. */
export async function deleteExpiredOauthModels(db: Database): Promise<number> {
  const rows = await db
    .delete(oauthModels)
    .where(lt(oauthModels.expiresAt, new Date()))
    .returning({ id: oauthModels.id });
  return rows.length;
}
