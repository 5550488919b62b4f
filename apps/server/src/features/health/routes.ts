import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';
import { checkReadiness, type ReadinessProbe } from './readiness.ts';

/**
 * `/livez`: the process runs and its event loop answers — nothing else is checked, so a
 * supervisor restarts it only when restarting helps. `/readyz` (and `/api/health`, the same):
 * every probe answered within its timeout, checked anew on each request — 503 from the first
 * request after one stops answering — and 503 from the moment a stop begins, while everything
 * else is still served, for a load balancer to send the next requests elsewhere.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  { lifecycle }: AppContext,
  probes: readonly ReadinessProbe[],
) {
  app.get('/livez', { config: { access: access.public } }, async () => ({ data: { status: 'ok' } }));

  const readiness = async (request: FastifyRequest, reply: FastifyReply) => {
    if (lifecycle.state !== 'serving') {
      void reply.status(503);
      return { data: { status: 'stopping' } };
    }
    const { ready, checks } = await checkReadiness(probes, undefined, (name, error) =>
      request.log.error({ err: error, probe: name }, `readiness: ${name} unavailable`),
    );
    if (!ready) void reply.status(503);
    return { data: { status: ready ? 'ok' : 'unavailable', checks } };
  };
  app.get('/readyz', { config: { access: access.public } }, readiness);
  app.get('/api/health', { config: { access: access.public } }, readiness);
}
