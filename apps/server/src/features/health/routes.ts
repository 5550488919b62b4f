import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';

export function registerHealthRoutes(app: FastifyInstance, { db, lifecycle }: AppContext) {
  app.get('/api/health', { config: { access: access.public } }, async (request, reply) => {
    // A stopping server still serves what it is sent, but asks its load balancer to stop sending.
    if (lifecycle.state !== 'serving') {
      return reply.status(503).send({ data: { status: 'stopping', database: 'ok' } });
    }
    try {
      await db.execute(sql`select 1`);
      return { data: { status: 'ok', database: 'ok' } };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ data: { status: 'unavailable', database: 'unreachable' } });
    }
  });
}
