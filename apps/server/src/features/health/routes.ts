import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';

export function registerHealthRoutes(app: FastifyInstance, { db }: AppContext) {
  app.get('/api/health', { config: { access: access.public } }, async (request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { data: { status: 'ok', database: 'ok' } };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ data: { status: 'unavailable', database: 'unreachable' } });
    }
  });
}
