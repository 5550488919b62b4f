import {
  type AuthenticationMethod,
  type ConfirmTotpInput,
  confirmTotpInputSchema,
  type FactorEnrolled,
  passkeyStepInputSchema,
  type ReauthenticationInput,
  reauthenticationInputSchema,
  recoveryStepInputSchema,
  registerPasskeyInputSchema,
  type SecondFactorList,
  type SessionSummary,
  type TotpEnrolment,
  totpStepInputSchema,
  validationCodes,
} from '@dukkan/contract';
import { and, asc, desc, eq, gt, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordSignInEvent } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, sessions, userFactors, users } from '../../db/schema/index.ts';
import { AppError, notFound, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { recipientLanguage, requestLanguage } from '../../http/mail-language.ts';
import { findSession, type SessionUser } from '../../http/sessions.ts';
import {
  clearSignInStepCookie,
  endChallenge,
  findSessionChallenge,
  findSignInStep,
  openSessionChallenge,
  setSignInChallenge,
  signInStepCookieNameFor,
} from './auth-challenges.ts';
import { loadCurrentUser } from './current-user.ts';
import { verifyPassword } from './passwords.ts';
import { type FactorChange, factorChangeMail } from './second-factor-mail.ts';
import {
  acceptPasskey,
  acceptTotpCode,
  listFactors,
  newTotpSecret,
  passkeyAuthenticationOptions,
  passkeyMethod,
  passkeyRegistrationOptions,
  relyingPartyOf,
  replaceRecoveryCodes,
  summaryOf,
  totpStep,
  totpUri,
  unusedRecoveryCodes,
  useRecoveryCode,
  verifyPasskeyRegistration,
} from './second-factors.ts';
import {
  clearSessionCookie,
  createSession,
  revokeSession,
  type SessionSettings,
  setSessionCookie,
} from './sessions.ts';

/*
 * The second factor's routes (docs/architecture.md, "Second factors"):
 * - the second step, which finishes a sign-in whose password was right (the sign-in cookie) or
 *   steps a signed-in session up: `auth/second-factor/{totp,recovery,passkey}`;
 * - enrolment and removal on the profile, each proving the person again (password or a code):
 *   `auth/second-factors…`, `auth/recovery-codes`;
 * - the person's sessions: `auth/sessions…`.
 * A success opens a new session (its token rotated) that records the methods used.
 */

const ok = { data: { success: true } };
const idParams = z.object({ id: z.uuid() });

export function registerSecondFactorRoutes(
  app: FastifyInstance,
  context: AppContext,
  settings: SessionSettings,
) {
  const { db, config, mailer, rateLimits } = context;
  const rp = relyingPartyOf(config.publicUrl);
  const signInCookie = signInStepCookieNameFor(settings.cookieName);

  const mailFactorChange = async (
    request: FastifyRequest,
    userId: string,
    change: FactorChange,
    factor = '',
  ) => {
    const [user] = await db
      .select({ email: users.email, name: users.name, language: users.language })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) return;
    const language = recipientLanguage({ recipient: user.language, causer: requestLanguage(request) });
    try {
      await mailer.send({ to: user.email, ...factorChangeMail(language, change, user.name, factor) });
    } catch (error) {
      request.log.error({ err: error, to: user.email }, 'mail could not be sent');
    }
  };

  /** Opens the session a proven second step earns, ending the one it replaces; answers the current user. */
  const openSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    factors: readonly string[],
    replaced: string | null,
  ) => {
    if (replaced) await revokeSession(db, replaced);
    const { token, expiresAt } = await createSession(db, userId, config.sessionTtlDays, {
      userAgent: request.headers['user-agent'],
      address: request.ip,
      factors,
    });
    setSessionCookie(reply, token, expiresAt, settings);
    return { data: await loadCurrentUser(db, userId, factors) };
  };

  /**
   * Whose second step this is: a sign-in's (the sign-in cookie), else a signed-in session's
   * step-up. Neither: not signed in, with the step's own words when a sign-in cookie is stale.
   */
  const stepOwner = async (request: FastifyRequest) => {
    const signIn = await findSignInStep(db, request, signInCookie, context.now());
    if (signIn) return { userId: signIn.userId, signIn, session: null };
    const session = await findSession(db, request, settings.cookieName);
    if (session) return { userId: session.userId, signIn: null, session };
    if (request.cookies[signInCookie] !== undefined) {
      throw validationError([{ path: 'code', message: validationCodes.SECOND_STEP_EXPIRED }]);
    }
    throw new AppError('UNAUTHORIZED', 'You are not signed in');
  };

  /** Counts an attempt per address and per account, as sign-in does: a code cannot be guessed. */
  const limitAttempt = async (request: FastifyRequest, userId: string) => {
    await rateLimits.secondFactor.perAddress.consume(request.ip);
    await rateLimits.secondFactor.perAccount.consume(userId);
  };

  /** What a proven second step does: finish the sign-in, or step the session up. */
  const finishStep = async (
    request: FastifyRequest,
    reply: FastifyReply,
    owner: Awaited<ReturnType<typeof stepOwner>>,
    method: AuthenticationMethod,
  ) => {
    await rateLimits.secondFactor.perAccount.reset(owner.userId);
    await recordSignInEvent(db, owner.userId, 'second-factor', true);
    if (owner.signIn) {
      // The step is used up here: a second request with the same cookie finds nothing.
      if (!(await endChallenge(db, owner.signIn.id))) {
        throw validationError([{ path: 'code', message: validationCodes.SECOND_STEP_EXPIRED }]);
      }
      clearSignInStepCookie(reply, signInCookie, settings.secure);
      const previous = await findSession(db, request, settings.cookieName);
      await db.update(users).set({ lastLoginAt: context.now() }).where(eq(users.id, owner.userId));
      await recordSignInEvent(db, owner.userId, 'sign-in', true);
      return openSession(request, reply, owner.userId, ['pwd', method], previous?.tokenHash ?? null);
    }
    const session = owner.session as SessionUser;
    return openSession(request, reply, owner.userId, [...session.factors, method], session.tokenHash);
  };

  const refuseStep = async (userId: string, path: string, message: string): Promise<never> => {
    await recordSignInEvent(db, userId, 'second-factor', false);
    throw validationError([{ path, message }]);
  };

  // --- The second step --------------------------------------------------------------------------

  app.post('/api/auth/second-factor/totp', { config: { access: access.public } }, async (request, reply) => {
    const input = parseInput(totpStepInputSchema, request.body);
    const owner = await stepOwner(request);
    await limitAttempt(request, owner.userId);
    const factor = await acceptTotpCode(db, owner.userId, input.code, context.now());
    if (!factor) return refuseStep(owner.userId, 'code', validationCodes.ONE_TIME_CODE_IS_INVALID);
    return finishStep(request, reply, owner, 'otp');
  });

  app.post(
    '/api/auth/second-factor/recovery',
    { config: { access: access.public } },
    async (request, reply) => {
      const input = parseInput(recoveryStepInputSchema, request.body);
      const owner = await stepOwner(request);
      await limitAttempt(request, owner.userId);
      if (!(await useRecoveryCode(db, owner.userId, input.code, context.now()))) {
        return refuseStep(owner.userId, 'code', validationCodes.RECOVERY_CODE_IS_INVALID);
      }
      return finishStep(request, reply, owner, 'otp');
    },
  );

  app.post(
    '/api/auth/second-factor/passkey/options',
    { config: { access: access.public } },
    async (request) => {
      const owner = await stepOwner(request);
      const factors = (await listFactors(db, owner.userId)).filter((factor) => factor.kind === 'passkey');
      if (factors.length === 0) throw notFound('No passkey is registered');
      const options = await passkeyAuthenticationOptions(rp, factors);
      if (owner.signIn) await setSignInChallenge(db, owner.signIn.id, options.challenge);
      else if (owner.session) {
        await openSessionChallenge(
          db,
          owner.session,
          'passkey',
          { webauthnChallenge: options.challenge },
          context.now(),
        );
      }
      return { data: options };
    },
  );

  app.post(
    '/api/auth/second-factor/passkey',
    { config: { access: access.public } },
    async (request, reply) => {
      const input = parseInput(passkeyStepInputSchema, request.body);
      const owner = await stepOwner(request);
      await limitAttempt(request, owner.userId);
      const challenge = owner.signIn
        ? owner.signIn.webauthnChallenge
        : owner.session
          ? (await findSessionChallenge(db, owner.session.tokenHash, 'passkey', context.now()))
              ?.webauthnChallenge
          : null;
      if (!challenge) return refuseStep(owner.userId, 'response', validationCodes.SECOND_STEP_EXPIRED);
      const factor = await acceptPasskey(db, rp, owner.userId, input.response, challenge, context.now());
      if (!factor) return refuseStep(owner.userId, 'response', validationCodes.PASSKEY_IS_INVALID);
      return finishStep(request, reply, owner, passkeyMethod(factor));
    },
  );

  // --- Enrolment ----------------------------------------------------------------------------------

  /**
   * Proves the person again before their factors change: the password, or a code of a factor
   * they hold (an authenticator app's or a recovery code). Wrong answers count against the same
   * limit as the second step.
   */
  const reauthenticate = async (request: FastifyRequest, userId: string, input: ReauthenticationInput) => {
    await limitAttempt(request, userId);
    let proven = false;
    if (input.password) {
      const [user] = await db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      proven = await verifyPassword(user?.hash, input.password);
    } else if (input.code) {
      const code = input.code.replace(/\s+/g, '');
      proven =
        (await acceptTotpCode(db, userId, code, context.now())) !== null ||
        (await useRecoveryCode(db, userId, code, context.now()));
    }
    if (!proven) {
      throw validationError([
        input.password
          ? { path: 'password', message: validationCodes.CURRENT_PASSWORD_IS_INCORRECT }
          : { path: 'code', message: validationCodes.ONE_TIME_CODE_IS_INVALID },
      ]);
    }
    await rateLimits.secondFactor.perAccount.reset(userId);
  };

  app.get('/api/auth/second-factors', { config: { access: access.signedIn } }, async (request) => {
    const { userId } = requestUser(request);
    const data: SecondFactorList = {
      factors: (await listFactors(db, userId)).map(summaryOf),
      recoveryCodesLeft: await unusedRecoveryCodes(db, userId),
    };
    return { data };
  });

  app.post(
    '/api/auth/second-factors/totp/start',
    { config: { access: access.signedIn } },
    async (request) => {
      const session = requestUser(request);
      await reauthenticate(request, session.userId, parseInput(reauthenticationInputSchema, request.body));
      const [user] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, session.userId))
        .limit(1);
      const secret = newTotpSecret();
      await openSessionChallenge(db, session, 'enrol-totp', { totpSecret: secret }, context.now());
      const data: TotpEnrolment = { secret, uri: totpUri(secret, user?.email ?? '') };
      return { data };
    },
  );

  /** Stores a new factor; the first one brings recovery codes. The enrolling session has now used it. */
  const enrol = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: SessionUser,
    factor: typeof userFactors.$inferInsert,
    method: AuthenticationMethod,
  ) => {
    const { made, recovery } = await db.transaction(async (tx) => {
      const first = (await listFactors(tx, session.userId)).length === 0;
      const [row] = await tx.insert(userFactors).values(factor).returning();
      await recordSignInEvent(tx, session.userId, 'factor-added', true);
      return { made: row!, recovery: first ? await replaceRecoveryCodes(tx, session.userId) : undefined };
    });
    await mailFactorChange(request, session.userId, 'added', made.name);
    await openSession(request, reply, session.userId, [...session.factors, method], session.tokenHash);
    const data: FactorEnrolled = {
      factor: summaryOf(made),
      ...(recovery ? { recoveryCodes: recovery } : {}),
    };
    return { data };
  };

  app.post(
    '/api/auth/second-factors/totp',
    { config: { access: access.signedIn } },
    async (request, reply) => {
      const input: ConfirmTotpInput = parseInput(confirmTotpInputSchema, request.body);
      const session = requestUser(request);
      const pending = await findSessionChallenge(db, session.tokenHash, 'enrol-totp', context.now());
      if (!pending?.totpSecret)
        throw validationError([{ path: 'code', message: validationCodes.SECOND_STEP_EXPIRED }]);
      await limitAttempt(request, session.userId);
      const step = await totpStep(pending.totpSecret, input.code, context.now(), null);
      if (step === null) {
        throw validationError([{ path: 'code', message: validationCodes.ONE_TIME_CODE_IS_INVALID }]);
      }
      await rateLimits.secondFactor.perAccount.reset(session.userId);
      if (!(await endChallenge(db, pending.id))) {
        throw validationError([{ path: 'code', message: validationCodes.SECOND_STEP_EXPIRED }]);
      }
      return enrol(
        request,
        reply,
        session,
        {
          userId: session.userId,
          kind: 'totp',
          name: input.name,
          totpSecret: pending.totpSecret,
          // The confirming code is used up: it cannot sign in again in its time step.
          totpLastStep: step,
          lastUsedAt: context.now(),
        },
        'otp',
      );
    },
  );

  app.post(
    '/api/auth/second-factors/passkey/options',
    { config: { access: access.signedIn } },
    async (request) => {
      const session = requestUser(request);
      await reauthenticate(request, session.userId, parseInput(reauthenticationInputSchema, request.body));
      const [user] = await db
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, session.userId))
        .limit(1);
      const options = await passkeyRegistrationOptions(
        rp,
        { id: session.userId, email: user?.email ?? '', name: user?.name ?? '' },
        await listFactors(db, session.userId),
      );
      await openSessionChallenge(
        db,
        session,
        'enrol-passkey',
        { webauthnChallenge: options.challenge },
        context.now(),
      );
      return { data: options };
    },
  );

  app.post(
    '/api/auth/second-factors/passkey',
    { config: { access: access.signedIn } },
    async (request, reply) => {
      const input = parseInput(registerPasskeyInputSchema, request.body);
      const session = requestUser(request);
      const pending = await findSessionChallenge(db, session.tokenHash, 'enrol-passkey', context.now());
      if (!pending?.webauthnChallenge) {
        throw validationError([{ path: 'response', message: validationCodes.SECOND_STEP_EXPIRED }]);
      }
      const passkey = await verifyPasskeyRegistration(rp, input.response, pending.webauthnChallenge);
      if (!passkey || !(await endChallenge(db, pending.id))) {
        throw validationError([{ path: 'response', message: validationCodes.PASSKEY_IS_INVALID }]);
      }
      return enrol(
        request,
        reply,
        session,
        { userId: session.userId, kind: 'passkey', name: input.name, ...passkey, lastUsedAt: context.now() },
        passkeyMethod(passkey),
      );
    },
  );

  app.delete('/api/auth/second-factors/:id', { config: { access: access.signedIn } }, async (request) => {
    const { id } = parseInput(idParams, request.params);
    const session = requestUser(request);
    const input = parseInput(reauthenticationInputSchema, request.body);
    const [factor] = await db
      .select({ id: userFactors.id, name: userFactors.name })
      .from(userFactors)
      .where(and(eq(userFactors.id, id), eq(userFactors.userId, session.userId)))
      .limit(1);
    // Another person's factor is as unknown as one that does not exist.
    if (!factor) throw notFound('Second factor not found');
    await reauthenticate(request, session.userId, input);
    await db.transaction(async (tx) => {
      await tx.delete(userFactors).where(and(eq(userFactors.id, id), eq(userFactors.userId, session.userId)));
      // Without a factor, recovery codes would recover nothing: they go with the last one.
      if ((await listFactors(tx, session.userId)).length === 0) {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, session.userId));
      }
      await recordSignInEvent(tx, session.userId, 'factor-removed', true);
    });
    await mailFactorChange(request, session.userId, 'removed', factor.name);
    return ok;
  });

  app.post('/api/auth/recovery-codes', { config: { access: access.signedIn } }, async (request) => {
    const session = requestUser(request);
    await reauthenticate(request, session.userId, parseInput(reauthenticationInputSchema, request.body));
    if ((await listFactors(db, session.userId)).length === 0) {
      throw new AppError('VALIDATION', 'Add a second factor before recovery codes', {
        issues: [{ path: 'factors', message: validationCodes.VALUE_IS_INVALID }],
      });
    }
    const codes = await db.transaction(async (tx) => {
      const made = await replaceRecoveryCodes(tx, session.userId);
      await recordSignInEvent(tx, session.userId, 'recovery-codes', true);
      return made;
    });
    return { data: { recoveryCodes: codes } };
  });

  // --- Sessions -----------------------------------------------------------------------------------

  app.get('/api/auth/sessions', { config: { access: access.signedIn } }, async (request) => {
    const session = requestUser(request);
    const rows = await db
      .select({
        tokenHash: sessions.tokenHash,
        id: sessions.id,
        userAgent: sessions.userAgent,
        address: sessions.address,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        factors: sessions.factors,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, session.userId), gt(sessions.expiresAt, context.now())))
      .orderBy(desc(sessions.lastSeenAt), asc(sessions.id));
    const data: SessionSummary[] = rows.map((row) => ({
      id: row.id,
      current: row.tokenHash === session.tokenHash,
      userAgent: row.userAgent,
      address: row.address,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      factors: row.factors as AuthenticationMethod[],
    }));
    return { data };
  });

  app.delete('/api/auth/sessions/:id', { config: { access: access.signedIn } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params);
    const session = requestUser(request);
    const [ended] = await db
      .delete(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, session.userId)))
      .returning({ tokenHash: sessions.tokenHash });
    if (!ended) throw notFound('Session not found');
    await recordSignInEvent(db, session.userId, 'sign-out', true);
    if (ended.tokenHash === session.tokenHash) {
      clearSessionCookie(reply, settings);
    }
    return ok;
  });

  app.post('/api/auth/sessions/sign-out-others', { config: { access: access.signedIn } }, async (request) => {
    const session = requestUser(request);
    const ended = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, session.userId), ne(sessions.tokenHash, session.tokenHash)))
      .returning({ id: sessions.id });
    if (ended.length > 0) await recordSignInEvent(db, session.userId, 'sign-out', true);
    return { data: { signedOut: ended.length } };
  });
}

/** Whether the person has any second factor: then a right password opens the second step, not a session. */
export async function needsSecondStep(db: Database, userId: string): Promise<boolean> {
  return (await listFactors(db, userId)).length > 0;
}
