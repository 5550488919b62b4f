import {
  changePasswordInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  passwordResetLifetimeMinutes,
  resetPasswordInputSchema,
  type SecondStepRequired,
  type UpdateLanguageInput,
  type UpdateProfileInput,
  updateLanguageInputSchema,
  updateProfileInputSchema,
  validationCodes,
} from '@dukkan/contract';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordSignInEvent } from '../../db/audit-log.ts';
import { revokeUserGrants } from '../../db/oauth-grants.ts';
import { passwordTokens, sessions, users } from '../../db/schema/index.ts';
import { AppError, notFound, parseInput, unauthorized, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { recipientLanguage, requestLanguage } from '../../http/mail-language.ts';
import { findSession, sessionCookieNameFor } from '../../http/sessions.ts';
import { createToken, hashToken } from '../../http/tokens.ts';
import { setSignInStepCookie, signInStepCookieNameFor, startSignInStep } from './auth-challenges.ts';
import { loadCurrentUser, loadCurrentUserJson } from './current-user.ts';
import { passwordResetMail } from './password-reset-mail.ts';
import { hashChosenPassword, verifyPassword } from './passwords.ts';
import { registerSecondFactorRoutes } from './second-factor-routes.ts';
import { secondStepMethods } from './second-factors.ts';
import {
  clearSessionCookie,
  createSession,
  revokeSession,
  revokeUserSessions,
  type SessionSettings,
  setSessionCookie,
} from './sessions.ts';

const ok = { data: { success: true } };

export function registerAuthRoutes(app: FastifyInstance, context: AppContext) {
  const { db, config, mailer, captcha, rateLimits } = context;
  const sessionSettings: SessionSettings = {
    ttlDays: config.sessionTtlDays,
    secure: config.publicUrl.startsWith('https://'),
    cookieName: sessionCookieNameFor(config.publicUrl),
  };

  /** Sends a mail after the request's work is done; a mail failure is logged, not shown. */
  const sendQuietly = async (request: FastifyRequest, mail: Parameters<typeof mailer.send>[0]) => {
    try {
      await mailer.send(mail);
    } catch (error) {
      request.log.error({ err: error, to: mail.to }, 'mail could not be sent');
    }
  };

  app.get(
    '/api/auth/user',
    {
      config: { access: access.signedIn },
      // A browser with no session cookie at all is simply signed out: an answer (`data: null`,
      // spec §7 reads data.data), not a 401 that every public page would log as a console error.
      // A cookie that is presented but expired or revoked is still refused by the guard.
      onRequest: async (request, reply) => {
        if (request.cookies[sessionSettings.cookieName] === undefined) {
          return reply.type('application/json; charset=utf-8').send('{"data":null}');
        }
      },
    },
    async (request, reply) => {
      // Serialized as it is read: the hot path of every page load (see loadCurrentUserJson).
      const session = requestUser(request);
      const user = await loadCurrentUserJson(db, session.userId, session.factors);
      if (!user) throw new AppError('UNAUTHORIZED', 'You are not signed in');
      return reply.type('application/json; charset=utf-8').send(`{"data":${user}}`);
    },
  );

  app.post('/api/auth/login', { config: { access: access.public } }, async (request, reply) => {
    await rateLimits.login.perAddress.consume(request.ip);
    const input = parseInput(loginInputSchema, request.body);
    // Hard limits count an address's attempts; an account's failures from everywhere only slow
    // its sign-in down (before the check, right password or not), so no one else can lock it.
    const accountAtAddress = `${input.email} ${request.ip}`;
    await rateLimits.login.perAccountAddress.consume(accountAtAddress);
    await rateLimits.login.perAccount.wait(input.email);

    const [user] = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, input.email))
      .limit(1);
    const valid = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !valid) {
      // A failure is on record for an account that exists; an unknown address leaves nothing.
      if (user) await recordSignInEvent(db, user.id, 'failure', false);
      await rateLimits.login.perAccount.fail(input.email);
      throw unauthorized();
    }
    await rateLimits.login.perAccountAddress.reset(accountAtAddress);

    // With a second factor, the right password opens the second step, not a session: the
    // sign-in cookie carries it to `auth/second-factor/…` (second-factor-routes.ts).
    const methods = await secondStepMethods(db, user.id);
    if (methods.length > 0) {
      const step = await startSignInStep(db, user.id, context.now());
      setSignInStepCookie(
        reply,
        signInStepCookieNameFor(sessionSettings.cookieName),
        step.token,
        step.expiresAt,
        sessionSettings.secure,
      );
      const data: SecondStepRequired = { secondFactor: { methods } };
      return { data };
    }

    // Rotation: the session the browser had before signing in is never reused.
    const previous = await findSession(db, request, sessionSettings.cookieName);
    if (previous) await revokeSession(db, previous.tokenHash);
    const { token, expiresAt } = await createSession(db, user.id, config.sessionTtlDays, {
      userAgent: request.headers['user-agent'],
      address: request.ip,
    });
    await db.update(users).set({ lastLoginAt: context.now() }).where(eq(users.id, user.id));
    await recordSignInEvent(db, user.id, 'sign-in', true);
    setSessionCookie(reply, token, expiresAt, sessionSettings);
    return { data: await loadCurrentUser(db, user.id, ['pwd']) };
  });

  app.get(
    '/api/auth/logout',
    // No automatic HEAD twin: a HEAD request must not sign anyone out.
    { exposeHeadRoute: false, config: { access: access.public, stateChanging: true } },
    async (request, reply) => {
      const session = await findSession(db, request, sessionSettings.cookieName);
      if (session) {
        await revokeSession(db, session.tokenHash);
        await recordSignInEvent(db, session.userId, 'sign-out', true);
      }
      if (request.cookies[sessionSettings.cookieName] !== undefined)
        clearSessionCookie(reply, sessionSettings);
      return ok;
    },
  );

  app.post('/api/auth/change-password', { config: { access: access.signedIn } }, async (request, reply) => {
    const input = parseInput(changePasswordInputSchema, request.body);
    const session = requestUser(request);
    const [user] = await db
      .select({ passwordHash: users.passwordHash, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, session.userId))
      .limit(1);
    if (!(await verifyPassword(user?.passwordHash, input.currentPassword))) {
      // The last wrong current password the limit allows ends this session: whoever holds it
      // does not get to keep guessing.
      const attemptsLeft = await rateLimits.changePassword.consume(session.userId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'RATE_LIMITED') return 0;
        throw error;
      });
      await recordSignInEvent(db, session.userId, 'password-change', false);
      if (attemptsLeft === 0) {
        await revokeSession(db, session.tokenHash);
        clearSessionCookie(reply, sessionSettings);
        throw new AppError('UNAUTHORIZED', 'Too many wrong passwords: you have been signed out');
      }
      throw validationError([
        { path: 'currentPassword', message: validationCodes.CURRENT_PASSWORD_IS_INCORRECT },
      ]);
    }
    const passwordHash = await hashChosenPassword(input.newPassword, 'newPassword', [
      user?.email ?? '',
      user?.name ?? '',
    ]);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: context.now() })
        .where(eq(users.id, session.userId));
      await revokeUserSessions(tx, session.userId, session.tokenHash);
      // The applications it signed in to lose their tokens too (the next refresh fails).
      await revokeUserGrants(tx, session.userId);
      // A reset link mailed before the change must not undo it.
      await tx.delete(passwordTokens).where(eq(passwordTokens.userId, session.userId));
      await recordSignInEvent(tx, session.userId, 'password-change', true);
    });
    await rateLimits.changePassword.reset(session.userId);
    return ok;
  });

  app.patch('/api/auth/profile', { config: { access: access.signedIn } }, async (request) => {
    // A body of the language alone is the user menu's switch; anything else is the profile form.
    const body = request.body;
    const languageOnly =
      typeof body === 'object' && body !== null && Object.keys(body).length === 1 && 'language' in body;
    const input: UpdateProfileInput | UpdateLanguageInput = languageOnly
      ? parseInput(updateLanguageInputSchema, body)
      : parseInput(updateProfileInputSchema, body);
    const { userId, factors } = requestUser(request);
    await db
      .update(users)
      .set({
        ...('name' in input ? { name: input.name } : {}),
        ...('phone' in input && input.phone !== undefined ? { phone: input.phone || null } : {}),
        ...(input.language ? { language: input.language } : {}),
        updatedAt: context.now(),
      })
      .where(eq(users.id, userId));
    return { data: await loadCurrentUser(db, userId, factors) };
  });

  app.post('/api/auth/forgot-password', { config: { access: access.public } }, async (request) => {
    await rateLimits.forgotPassword.perAddress.consume(request.ip);
    const input = parseInput(forgotPasswordInputSchema, request.body);
    await rateLimits.forgotPassword.perAccount.consume(input.email);
    await captcha.verify(input.reCaptchaToken, request.ip);

    const [user] = await db
      .select({ id: users.id, name: users.name, language: users.language })
      .from(users)
      .where(eq(users.email, input.email))
      .limit(1);
    // The spec asks for a 404 here (the page shows 'user not found'); the rate limits above
    // bound how fast addresses can be probed.
    if (!user) throw notFound('user not found');

    const { token, tokenHash } = createToken();
    await db.insert(passwordTokens).values({
      tokenHash,
      userId: user.id,
      purpose: 'reset',
      expiresAt: new Date(context.now().getTime() + passwordResetLifetimeMinutes * 60_000),
    });
    const link = `${config.publicUrl}/reset-password?token=${token}`;
    await sendQuietly(request, {
      to: input.email,
      ...passwordResetMail(
        recipientLanguage({ recipient: user.language, causer: requestLanguage(request, input.language) }),
        user.name,
        link,
      ),
    });
    return ok;
  });

  app.post('/api/auth/reset-password', { config: { access: access.public } }, async (request) => {
    const input = parseInput(resetPasswordInputSchema, request.body);
    const passwordHash = await hashChosenPassword(input.password, 'password');
    const consumed = await db.transaction(async (tx) => {
      // Deleting the row is what makes the token single-use, even under concurrent requests.
      const [token] = await tx
        .delete(passwordTokens)
        .where(
          and(
            eq(passwordTokens.tokenHash, hashToken(input.token)),
            gt(passwordTokens.expiresAt, context.now()),
          ),
        )
        .returning({ userId: passwordTokens.userId });
      if (!token) return false;
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: context.now() })
        .where(eq(users.id, token.userId));
      await tx.delete(passwordTokens).where(eq(passwordTokens.userId, token.userId));
      await tx.delete(sessions).where(eq(sessions.userId, token.userId));
      await revokeUserGrants(tx, token.userId);
      await recordSignInEvent(tx, token.userId, 'password-reset', true);
      return true;
    });
    if (!consumed) throw validationError([{ path: 'token', message: validationCodes.TOKEN_IS_INVALID }]);
    return ok;
  });

  registerSecondFactorRoutes(app, context, sessionSettings);
}
