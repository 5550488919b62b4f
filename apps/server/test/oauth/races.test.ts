import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, oidcPost, portalFixture, signInThroughPortal } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Two instances of the server on one PostgreSQL database, as behind a load balancer: one code
 * redeemed ten times at once across both gives one set of tokens, one refresh token used five
 * times at once gives at most one. The adapter's `consume` (one UPDATE … WHERE consumed_at IS
 * NULL) decides. PGlite runs one statement at a time, so there is no race to see there.
 */
describe.skipIf(!process.env.DATABASE_URL)('two instances racing on one database', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** A sign-in through the first instance, up to the code the client receives. */
  async function codeFor() {
    const fixture = await portalFixture(first);
    const request = await authorizationRequest(fixture);
    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    return { fixture, request, callback, code: callback.searchParams.get('code')! };
  }

  /** The same token request sent `times` times at once, alternately to each instance. */
  function atOnce(times: number, form: Record<string, string>) {
    return Promise.all(
      Array.from({ length: times }, (_, index) => {
        const instance = index % 2 === 0 ? first : second;
        return oidcPost(instance.app, instance.config.publicUrl, '/token', form);
      }),
    );
  }

  const tally = (answers: { status: number; json: Record<string, unknown> }[]) => {
    const counts: Record<string, number> = {};
    for (const { status, json } of answers) {
      const key = status === 200 ? '200' : `${status} ${String(json.error)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };

  it('one code redeemed 10 times at once across both instances: one token response, 9 invalid_grant', async () => {
    const { fixture, request, code } = await codeFor();
    const answers = await atOnce(10, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: fixture.redirectUri,
      code_verifier: request.verifier,
      client_id: fixture.application.clientId,
    });
    expect(tally(answers)).toEqual({ '200': 1, '400 invalid_grant': 9 });
    const won = answers.find((answer) => answer.status === 200)!.json;
    expect(won).toMatchObject({ token_type: 'Bearer' });
    expect(typeof won.access_token).toBe('string');
    expect(typeof won.id_token).toBe('string');
  });

  it('one refresh token used 5 times at once across both instances: at most one new pair', async () => {
    const { fixture, request, callback } = await codeFor();
    const tokens = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const answers = await atOnce(5, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: fixture.application.clientId,
    });
    const counts = tally(answers);
    expect(counts['200'] ?? 0).toBeLessThanOrEqual(1);
    expect(counts['400 invalid_grant']).toBe(5 - (counts['200'] ?? 0));
    // The spent refresh token stays spent.
    await expect(client.refreshTokenGrant(fixture.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('different codes redeemed at once across both instances: each gets its tokens (no false refusal)', async () => {
    const codes = [];
    for (let index = 0; index < 4; index++) codes.push(await codeFor());
    const answers = await Promise.all(
      codes.map(({ fixture, request, code }, index) => {
        const instance = index % 2 === 0 ? first : second;
        return oidcPost(instance.app, instance.config.publicUrl, '/token', {
          grant_type: 'authorization_code',
          code,
          redirect_uri: fixture.redirectUri,
          code_verifier: request.verifier,
          client_id: fixture.application.clientId,
        });
      }),
    );
    expect(tally(answers)).toEqual({ '200': 4 });
  });
});
