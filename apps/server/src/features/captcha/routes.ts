import type { FastifyInstance } from 'fastify';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';

export function registerCaptchaRoutes(app: FastifyInstance, { captcha }: AppContext) {
  app.get('/api/captcha/config', { config: { access: access.public } }, async () => ({
    data: captcha.publicConfig,
  }));
  app.get('/api/captcha/challenge', { config: { access: access.public } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { data: await captcha.createChallenge() };
  });
}
