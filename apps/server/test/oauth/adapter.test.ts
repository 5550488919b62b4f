import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type AdapterPayload, errors } from 'oidc-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { oauthModels } from '../../src/db/schema/index.ts';
import { deleteExpiredOauthModels, drizzleAdapter } from '../../src/features/oauth/oauth-adapter.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

/**
 * oidc-provider's storage on Drizzle, called as the provider calls it: each model's rows apart,
 * lookups by id, uid and user code, expiry by the JavaScript clock (faked here: Date only),
 * `consume` winning once for codes and refresh tokens, revocation by grant, and the sweep of
 * expired rows.
 */
let database: TestDatabase;
const clients: Record<string, AdapterPayload> = { known: { client_id: 'known', redirect_uris: [] } };
let adapterFor: ReturnType<typeof drizzleAdapter>;
const start = new Date('2026-04-01T10:00:00.000Z');

beforeAll(async () => {
  database = await createTestDatabase();
  adapterFor = drizzleAdapter(database.db, async (clientId) => clients[clientId]);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
});
afterEach(() => {
  vi.useRealTimers();
});

const seconds = (n: number) => vi.setSystemTime(new Date(start.getTime() + n * 1000));
const id = () => randomUUID();

describe('upsert and find', () => {
  it('stores the payload with its grant id, uid and user code; a second upsert replaces it', async () => {
    const codes = adapterFor('AuthorizationCode');
    const key = id();
    const grantId = id();
    await codes.upsert(key, { grantId, accountId: 'user-1', scope: 'openid' }, 60);
    expect(await codes.find(key)).toEqual({ grantId, accountId: 'user-1', scope: 'openid' });
    const [row] = await database.db.select().from(oauthModels).where(eq(oauthModels.id, key));
    expect(row).toMatchObject({
      model: 'AuthorizationCode',
      grantId,
      uid: null,
      userCode: null,
      consumedAt: null,
      expiresAt: new Date(start.getTime() + 60_000),
    });

    await codes.upsert(key, { grantId, accountId: 'user-1', scope: 'openid email' }, 120);
    expect(await codes.find(key)).toEqual({ grantId, accountId: 'user-1', scope: 'openid email' });
    const rows = await database.db.select().from(oauthModels).where(eq(oauthModels.id, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt).toEqual(new Date(start.getTime() + 120_000));
  });

  it('a key that no id can be (a NUL, a space, over 512 characters) finds nothing and reaches no query', async () => {
    const tokens = adapterFor('AccessToken');
    for (const key of ['a\u0000b', 'a b', 'x'.repeat(513), '']) {
      expect(await tokens.find(key)).toBeUndefined();
      expect(await tokens.findByUid(key)).toBeUndefined();
      expect(await tokens.findByUserCode(key)).toBeUndefined();
    }
  });

  it('each model is apart: the same id in another model is another row', async () => {
    const key = id();
    await adapterFor('AccessToken').upsert(key, { kind: 'AccessToken' }, 60);
    await adapterFor('RefreshToken').upsert(key, { kind: 'RefreshToken' }, 60);
    expect(await adapterFor('AccessToken').find(key)).toEqual({ kind: 'AccessToken' });
    expect(await adapterFor('RefreshToken').find(key)).toEqual({ kind: 'RefreshToken' });
    expect(await adapterFor('AuthorizationCode').find(key)).toBeUndefined();
    await adapterFor('AccessToken').destroy(key);
    expect(await adapterFor('AccessToken').find(key)).toBeUndefined();
    expect(await adapterFor('RefreshToken').find(key)).toEqual({ kind: 'RefreshToken' });
  });

  it('unknown ids, uids and user codes find nothing', async () => {
    expect(await adapterFor('Session').find(id())).toBeUndefined();
    expect(await adapterFor('Session').findByUid(id())).toBeUndefined();
    expect(await adapterFor('DeviceCode').findByUserCode('ABCD-EFGH')).toBeUndefined();
  });

  it('findByUid: a session by its uid, within its model only', async () => {
    const sessions = adapterFor('Session');
    const key = id();
    const uid = id();
    await sessions.upsert(key, { uid, accountId: 'user-1' }, 3600);
    expect(await sessions.findByUid(uid)).toEqual({ uid, accountId: 'user-1' });
    expect(await adapterFor('Interaction').findByUid(uid)).toBeUndefined();
  });

  it('findByUserCode: a device code by its user code', async () => {
    const devices = adapterFor('DeviceCode');
    const userCode = `UC-${id().slice(0, 8)}`;
    await devices.upsert(id(), { userCode, clientId: 'known' }, 600);
    expect(await devices.findByUserCode(userCode)).toEqual({ userCode, clientId: 'known' });
  });

  it('destroy removes the row', async () => {
    const interactions = adapterFor('Interaction');
    const key = id();
    await interactions.upsert(key, { uid: key }, 3600);
    await interactions.destroy(key);
    expect(await interactions.find(key)).toBeUndefined();
    expect(await database.db.select().from(oauthModels).where(eq(oauthModels.id, key))).toEqual([]);
  });
});

describe('expiry, by the JavaScript clock', () => {
  it('found until its life is over, then neither by id nor by uid', async () => {
    const sessions = adapterFor('Session');
    const key = id();
    const uid = id();
    await sessions.upsert(key, { uid }, 60);
    seconds(59);
    expect(await sessions.find(key)).toEqual({ uid });
    expect(await sessions.findByUid(uid)).toEqual({ uid });
    seconds(60);
    expect(await sessions.find(key)).toBeUndefined();
    expect(await sessions.findByUid(uid)).toBeUndefined();
  });

  it('without a life it never expires', async () => {
    const grants = adapterFor('Grant');
    const key = id();
    await grants.upsert(key, { accountId: 'user-1' }, 0);
    seconds(10 * 365 * 24 * 60 * 60);
    expect(await grants.find(key)).toEqual({ accountId: 'user-1' });
  });

  it('deleteExpiredOauthModels removes expired rows of every model, and only those', async () => {
    // Earlier tests' rows are all younger than this test's clock moves: clear the slate first.
    seconds(100 * 365 * 24 * 60 * 60);
    await deleteExpiredOauthModels(database.db);
    seconds(0);
    const expiring = [
      ['AccessToken', id()],
      ['Session', id()],
      ['AuthorizationCode', id()],
    ] as const;
    for (const [model, key] of expiring) await adapterFor(model).upsert(key, {}, 60);
    const lasting = id();
    await adapterFor('RefreshToken').upsert(lasting, {}, 3600);
    const forever = id();
    await adapterFor('Grant').upsert(forever, {}, 0);

    seconds(30);
    expect(await deleteExpiredOauthModels(database.db)).toBe(0);
    seconds(61);
    expect(await deleteExpiredOauthModels(database.db)).toBe(3);
    for (const [, key] of expiring) {
      expect(await database.db.select().from(oauthModels).where(eq(oauthModels.id, key))).toEqual([]);
    }
    expect(await adapterFor('RefreshToken').find(lasting)).toEqual({});
    expect(await adapterFor('Grant').find(forever)).toEqual({});
    expect(await deleteExpiredOauthModels(database.db)).toBe(0);
  });
});

describe('consume', () => {
  it('a code is consumed once: the second consume throws InvalidGrant; find shows when it was consumed', async () => {
    const codes = adapterFor('AuthorizationCode');
    const key = id();
    await codes.upsert(key, { grantId: id() }, 60);
    seconds(5);
    await codes.consume(key);
    expect(await codes.find(key)).toMatchObject({ consumed: Math.floor(start.getTime() / 1000) + 5 });
    seconds(6);
    await expect(codes.consume(key)).rejects.toBeInstanceOf(errors.InvalidGrant);
    await expect(codes.consume(key)).rejects.toMatchObject({
      error: 'invalid_grant',
      error_detail: 'AuthorizationCode already consumed',
    });
    // The first consumption's time stays.
    expect(await codes.find(key)).toMatchObject({ consumed: Math.floor(start.getTime() / 1000) + 5 });
  });

  it('a refresh token likewise; of two consumes at once, exactly one wins', async () => {
    const tokens = adapterFor('RefreshToken');
    const key = id();
    await tokens.upsert(key, { grantId: id() }, 3600);
    const outcomes = await Promise.allSettled([tokens.consume(key), tokens.consume(key)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(errors.InvalidGrant);
  });

  it('a code that does not exist cannot be consumed', async () => {
    await expect(adapterFor('AuthorizationCode').consume(id())).rejects.toBeInstanceOf(errors.InvalidGrant);
  });

  it('other models may be consumed again without an error', async () => {
    const interactions = adapterFor('Interaction');
    const key = id();
    await interactions.upsert(key, {}, 60);
    await interactions.consume(key);
    await expect(interactions.consume(key)).resolves.toBeUndefined();
    expect(await interactions.find(key)).toHaveProperty('consumed');
  });

  it('a new upsert of a consumed code keeps it consumed', async () => {
    const codes = adapterFor('AuthorizationCode');
    const key = id();
    await codes.upsert(key, { grantId: 'g' }, 60);
    await codes.consume(key);
    await codes.upsert(key, { grantId: 'g', scope: 'openid' }, 60);
    expect(await codes.find(key)).toMatchObject({ scope: 'openid', consumed: expect.any(Number) });
    await expect(codes.consume(key)).rejects.toBeInstanceOf(errors.InvalidGrant);
  });
});

describe('revokeByGrantId', () => {
  it('removes every code and token of the grant, in every model, and nothing of another grant', async () => {
    const grantId = id();
    const otherGrant = id();
    const mine = [
      ['AccessToken', id()],
      ['RefreshToken', id()],
      ['AuthorizationCode', id()],
    ] as const;
    for (const [model, key] of mine) await adapterFor(model).upsert(key, { grantId }, 600);
    const theirs = id();
    await adapterFor('AccessToken').upsert(theirs, { grantId: otherGrant }, 600);

    // The provider calls it on each model's adapter.
    for (const [model] of mine) await adapterFor(model).revokeByGrantId(grantId);
    for (const [model, key] of mine) expect(await adapterFor(model).find(key)).toBeUndefined();
    expect(await adapterFor('AccessToken').find(theirs)).toEqual({ grantId: otherGrant });
  });

  it("removes the grant's own row too (found by its id, which no payload field repeats)", async () => {
    const grantId = id();
    await adapterFor('Grant').upsert(grantId, { accountId: 'someone', clientId: 'known' }, 600);
    await adapterFor('Grant').revokeByGrantId(grantId);
    expect(await adapterFor('Grant').find(grantId)).toBeUndefined();
  });
});

describe('clients', () => {
  it('are read from the applications; nothing is written through the provider', async () => {
    const clientAdapter = adapterFor('Client');
    expect(await clientAdapter.find('known')).toEqual(clients.known);
    expect(await clientAdapter.find('unknown')).toBeUndefined();
    expect(await clientAdapter.findByUid('known')).toBeUndefined();
    await expect(clientAdapter.upsert('new', { client_id: 'new' }, 0)).rejects.toThrow(/operator commands/);
    await expect(clientAdapter.destroy('known')).rejects.toThrow(/operator commands/);
    await expect(clientAdapter.consume('known')).rejects.toThrow(/operator commands/);
    await expect(clientAdapter.revokeByGrantId('known')).rejects.toThrow(/operator commands/);
  });
});
