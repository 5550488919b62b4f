import type { FastifyInstance } from 'fastify';
import { runAsRequest } from '../db/audit-log.ts';

/**
 * Every route's handler runs with its request as the audit log's actor: a member, the session's
 * user (read when a change is recorded, after the access guard found them), with the request's
 * id, address and user agent. Set before the handler, so that the body is parsed already (the
 * parser's stream events run outside any request's context).
 */
export function registerAuditActor(app: FastifyInstance) {
  app.addHook('preHandler', (request, _reply, done) => {
    runAsRequest(
      () => ({
        kind: 'member',
        userId: request.session?.userId ?? null,
        requestId: request.id,
        address: request.ip ?? null,
        userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
      }),
      done,
    );
  });
}
