import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoClientOptions } from './config.ts';
import { type Dukkan, openIdDukkan } from './dukkan.ts';
import { errorPage } from './pages.ts';
import { type DemoApp, handleRequest } from './routes.ts';
import { SessionStore } from './sessions.ts';

/** Replaceable parts, for tests. */
export interface DemoClientParts {
  dukkan?: Dukkan;
  sessions?: SessionStore;
  now?: () => number;
}

/**
 * The demo application's HTTP server, not yet listening: `server.listen(port)` starts it (port 0
 * for any free port; without a `redirectUri` option it is then `http://localhost:<port>/callback`).
 */
export function createDemoClient(options: DemoClientOptions, parts: DemoClientParts = {}): Server {
  const server = createServer();
  const redirectUri = () =>
    options.redirectUri ?? `http://localhost:${(server.address() as AddressInfo).port}/callback`;
  const app: DemoApp = {
    dukkan: parts.dukkan ?? openIdDukkan({ ...options, redirectUri }),
    sessions: parts.sessions ?? new SessionStore(),
    redirectUri,
    now: parts.now,
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    request.resume(); // No route reads a body; the forms post none.
    handleRequest(app, {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      cookieHeader: request.headers.cookie,
    })
      .then((reply) => {
        response.writeHead(reply.status, reply.headers).end(reply.body);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!response.headersSent) {
          response
            .writeHead(500, { 'Content-Type': 'text/html; charset=utf-8' })
            .end(errorPage('Something went wrong', 'The demo application failed to answer.'));
        }
      });
  });
  return server;
}

/** Creates the server and waits for it to listen on `port` (0 for any free port). */
export function startDemoClient(
  options: DemoClientOptions & { port: number },
  parts: DemoClientParts = {},
): Promise<Server> {
  const server = createDemoClient(options, parts);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
