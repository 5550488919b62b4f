import { asc, sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { oauthSigningKeys } from '../../src/db/schema/index.ts';
import { retiredKeyLifeMs } from '../../src/features/oauth/signing-keys.ts';
import { runCliOn } from '../helpers/cli.ts';
import { clientFor, portalFixture, signIn, TestBrowser } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The keys that sign ID tokens: one made at the first start, in `oauth_signing_keys`; the
 * operator's `rotate-signing-keys` makes a new one and retires the old, which stays published so
 * what it signed still verifies; a running instance picks the new key up at its next minute
 * (its timer is faked here: the test moves it on), a new instance at once.
 */
let t: TestApp;
beforeAll(async () => {
  // Only the intervals are faked (the app's minute timer); dates and timeouts are real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});

const storedKeys = () =>
  t.db
    .select({ kid: oauthSigningKeys.kid, retiredAt: oauthSigningKeys.retiredAt })
    .from(oauthSigningKeys)
    .orderBy(asc(oauthSigningKeys.createdAt));

async function jwksOf(testApp: TestApp): Promise<JSONWebKeySet> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: '/oidc/jwks',
    headers: { host: new URL(testApp.config.publicUrl).host },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as JSONWebKeySet;
}
const kidsOf = async (testApp: TestApp) => (await jwksOf(testApp)).keys.map((key) => key.kid);

/** Verifies an ID token's signature against what the app publishes now; returns its key id. */
async function verifiedKid(testApp: TestApp, idToken: string): Promise<string> {
  const jwks = createLocalJWKSet(await jwksOf(testApp));
  const { protectedHeader } = await jwtVerify(idToken, jwks, {
    issuer: `${testApp.config.publicUrl}/oidc`,
    // The ID token's own life is an hour; its signature is what is checked here.
    currentDate: new Date(),
  });
  return protectedHeader.kid!;
}

/** The operator's command, in process on the test app's database, at `now`. */
const rotate = (now: Date) => runCliOn(t, ['rotate-signing-keys'], { now: () => now });

/**
 * Moves the app's minute timer on, then asks for the JWKS until the rebuilt provider answers: the
 * reload is one query, and each attempt makes a round trip to the database first, which lets it
 * finish. No clock is waited on.
 */
async function nextMinute(expected: (kids: (string | undefined)[]) => boolean) {
  await vi.advanceTimersByTimeAsync(60_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    await t.db.execute(sql`select 1`);
    const kids = await kidsOf(t);
    if (expected(kids)) return kids;
  }
  throw new Error(`The app did not pick up the new keys: ${(await kidsOf(t)).join(', ')}`);
}

describe('signing keys', () => {
  let firstKid: string;

  it('the first start makes one key, published without its private part; another start makes none', async () => {
    const keys = await storedKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.retiredAt).toBeNull();
    firstKid = keys[0]!.kid;
    const jwks = await jwksOf(t);
    expect(jwks.keys.map((key) => key.kid)).toEqual([firstKid]);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(jwks.keys[0]).not.toHaveProperty(part);

    const second = await createTestApp({ database: t.database });
    try {
      expect(await storedKeys()).toHaveLength(1);
      expect(await kidsOf(second)).toEqual([firstKid]);
    } finally {
      await second.close();
    }
  });

  it('rotate-signing-keys: a new key signs, the old one still verifies what it signed', async () => {
    const fixture = await portalFixture(t);
    const before = await signIn(fixture);
    expect(decodeProtectedHeader(before.id_token!).kid).toBe(firstKid);
    expect(await verifiedKid(t, before.id_token!)).toBe(firstKid);

    const rotatedAt = new Date();
    const { code, stdout, stderr } = await rotate(rotatedAt);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const keys = await storedKeys();
    expect(keys).toHaveLength(2);
    const newKid = keys.find((key) => key.kid !== firstKid)!.kid;
    expect(stdout).toBe(`New signing key ${newKid}; the previous one verifies for two more days.\n`);
    expect(keys).toEqual(
      expect.arrayContaining([
        { kid: firstKid, retiredAt: rotatedAt },
        { kid: newKid, retiredAt: null },
      ]),
    );

    // Until its next minute the running app signs and publishes as before.
    expect(await kidsOf(t)).toEqual([firstKid]);
    // (In a browser of its own: a browser's session holds one sign-in per application.)
    const otherBrowser = new TestBrowser(t.app, t.config.publicUrl);
    otherBrowser.setCookie(fixture.member.cookie);
    const stale = await signIn(fixture, { browser: otherBrowser });
    expect(decodeProtectedHeader(stale.id_token!).kid).toBe(firstKid);

    // Its minute comes: both keys published, the new one first (the one that signs).
    expect(await nextMinute((kids) => kids.length === 2)).toEqual([newKid, firstKid]);
    const after = await signIn(fixture);
    expect(decodeProtectedHeader(after.id_token!).kid).toBe(newKid);
    expect(await verifiedKid(t, after.id_token!)).toBe(newKid);
    // What the old key signed before the rotation still verifies.
    expect(await verifiedKid(t, before.id_token!)).toBe(firstKid);
    expect(await verifiedKid(t, stale.id_token!)).toBe(firstKid);

    // Tokens issued before the rebuild still work: the refresh answers an ID token of the new key.
    const refreshed = await client.refreshTokenGrant(fixture.config, stale.refresh_token!);
    expect(decodeProtectedHeader(refreshed.id_token!).kid).toBe(newKid);

    // A minute with no rotation changes nothing.
    expect(await nextMinute(() => true)).toEqual([newKid, firstKid]);

    // A new instance signs with the new key from its start.
    const second = await createTestApp({ database: t.database });
    try {
      expect(await kidsOf(second)).toEqual([newKid, firstKid]);
      const browser = new TestBrowser(second.app, second.config.publicUrl);
      browser.setCookie(fixture.member.cookie);
      const config = await clientFor(second, fixture.application.clientId);
      const elsewhere = await signIn({ ...fixture, config, browser });
      expect(decodeProtectedHeader(elsewhere.id_token!).kid).toBe(newKid);
      expect(await verifiedKid(t, elsewhere.id_token!)).toBe(newKid);
    } finally {
      await second.close();
    }
  });

  it('a key retired more than two days ago is deleted at the next rotation and no longer published', async () => {
    const [retired, current] = (await storedKeys()).slice(-2);
    expect(retired!.retiredAt).not.toBeNull();
    expect(current!.retiredAt).toBeNull();
    const later = new Date(retired!.retiredAt!.getTime() + retiredKeyLifeMs + 60_000);
    const { code, stdout } = await rotate(later);
    expect(code).toBe(0);
    expect(stdout).toMatch(/ 1 expired key removed\.\n$/);
    const keys = await storedKeys();
    expect(keys.map((key) => key.kid)).not.toContain(retired!.kid);
    expect(keys).toHaveLength(2);
    const newest = keys.find((key) => key.retiredAt === null)!.kid;
    expect(await nextMinute((kids) => kids[0] === newest)).toEqual([newest, current!.kid]);
  });
});
