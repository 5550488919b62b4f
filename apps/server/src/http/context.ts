import type { WorkspaceGrant } from '@dukkan/contract';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { CaptchaVerifier } from '../platform/captcha/captcha.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { RateLimiter, Slowdown } from '../platform/rate-limit/rate-limiter.ts';
import type { FileStore } from '../platform/storage/file-store.ts';
import type { ImportJobEvents } from '../resource-engine/import-events.ts';
import type { ImportWorker } from '../resource-engine/import-jobs.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { SessionUser } from './sessions.ts';

/** What route modules are given: configuration and the platform's drivers, chosen once in buildApp. */
export interface AppContext {
  config: Config;
  db: Database;
  /** Serving, or stopping (health then answers 503). */
  lifecycle: Lifecycle;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  /** Uploads and platform files: the uploads folder or an S3-compatible bucket. */
  fileStore: FileStore;
  rateLimits: {
    /** Hard limits per address and per (account, address); per account alone, a slowdown. */
    login: { perAddress: RateLimiter; perAccountAddress: RateLimiter; perAccount: Slowdown };
    forgotPassword: { perAddress: RateLimiter; perAccount: RateLimiter };
    requestAccess: { perAddress: RateLimiter; perAccount: RateLimiter };
    /** Wrong current passwords per account on change-password. */
    changePassword: RateLimiter;
    /** Second steps, enrolments' proofs: attempts per address and per account. */
    secondFactor: { perAddress: RateLimiter; perAccount: RateLimiter };
  };
  /** Time source, replaceable in tests (token expiry). */
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's file store (`AppContext.fileStore`), for what runs beside the routes: start-up, readiness. */
    fileStore: FileStore;
    /** This process's worker of import jobs (decision 0042): tests wait for it to be idle. */
    importWorker: ImportWorker;
    /** This process's hub of import job events (decision 0052): tests count its open streams. */
    importEvents: ImportJobEvents;
  }
  interface FastifyRequest {
    /** Set by the access guard on every route that is not public. */
    session: SessionUser | null;
    /** Set by the access guard on permission routes: the checked workspace and the caller's grant there. */
    workspace: { id: string; grant: WorkspaceGrant } | null;
  }
}
