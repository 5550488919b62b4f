import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer as small as the three-instance test needs, with the two rules that matter:
 *
 * - **no affinity**: requests go round-robin over the processes in rotation, so consecutive
 *   requests of one client land on different processes;
 * - **a retry only when nothing was sent**: a request is tried on the next process only when its
 *   connection was refused (the process is not listening: no byte of the request left); any other
 *   failure is answered 502 and counted, so a write lost by a process cannot be hidden by
 *   sending it again.
 *
 * A process leaves the rotation when it refuses a connection, or when its readiness (polled
 * every `pollMs`) has failed twice in a row: answered anything but 200, or not within a second.
 * It comes back when it answers 200 again. One missed probe is not enough, as a load balancer
 * counts several (HAProxy's `fall`): on a machine busy with three servers, fifty clients and
 * PostgreSQL, a probe of a healthy process sometimes took over a second, and with the restarted
 * one out too, no process was left in rotation. A process stopping answers 503 for
 * SHUTDOWN_DELAY_SECONDS (2 s) while it still serves, so two polls take it out in time.
 */
export interface ProxyStats {
  /** Requests answered by each process, by index. */
  served: number[];
  /** Requests sent again to the next process after a refused connection. */
  retries: number;
  /** Requests answered 502: a process failed after the request was sent, or none was in rotation. */
  failures: number;
}

export interface Backend {
  port: number;
}

export interface RoundRobinProxy {
  url: string;
  stats: ProxyStats;
  /** The process index that answered each request, in order (for "each step on another process"). */
  servedBy: number[];
  /** Whether each process is in rotation now. */
  inRotation(): boolean[];
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

function forwardedHeaders(headers: IncomingHttpHeaders, clientAddress: string): IncomingHttpHeaders {
  const forwarded: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!hopByHop.has(name)) forwarded[name] = value;
  }
  forwarded['x-forwarded-for'] = clientAddress;
  forwarded['x-forwarded-proto'] = 'http';
  return forwarded;
}

export async function startRoundRobinProxy(
  backends: readonly Backend[],
  options: { readinessPath: string; pollMs?: number },
): Promise<RoundRobinProxy> {
  const stats: ProxyStats = { served: backends.map(() => 0), retries: 0, failures: 0 };
  const servedBy: number[] = [];
  const ready = backends.map(() => false);
  /** Each process's failed readiness probes since its last success. */
  const missed = backends.map(() => 0);
  let next = 0;

  const probed = (index: number, success: boolean) => {
    missed[index] = success ? 0 : missed[index]! + 1;
    if (success) ready[index] = true;
    else if (missed[index]! >= 2) ready[index] = false;
  };
  const poll = (index: number) =>
    new Promise<void>((resolvePoll) => {
      const probe = httpRequest(
        {
          host: '127.0.0.1',
          port: backends[index]!.port,
          path: options.readinessPath,
          agent: false,
          timeout: 1000,
        },
        (response) => {
          probed(index, response.statusCode === 200);
          response.resume();
          response.on('end', resolvePoll);
        },
      );
      probe.on('timeout', () => probe.destroy(new Error('readiness timed out')));
      probe.on('error', (error: NodeJS.ErrnoException) => {
        // Not listening: out at once, as a refused request takes it out.
        if (error.code === 'ECONNREFUSED') missed[index] = Math.max(missed[index]!, 1);
        probed(index, false);
        resolvePoll();
      });
      probe.end();
    });
  let polling = true;
  const pollLoop = (async () => {
    while (polling) {
      await Promise.all(backends.map((_, index) => poll(index)));
      await new Promise((resolveWait) => setTimeout(resolveWait, options.pollMs ?? 100));
    }
  })();
  await Promise.all(backends.map((_, index) => poll(index)));

  /** The next process in rotation after the last one chosen, or null when none is. */
  function choose(exclude: ReadonlySet<number>): number | null {
    for (let step = 0; step < backends.length; step++) {
      const index = (next + step) % backends.length;
      if (ready[index] && !exclude.has(index)) {
        next = (index + 1) % backends.length;
        return index;
      }
    }
    return null;
  }

  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      // The whole body first: a request refused by one process is sent whole to the next.
      const body = Buffer.concat(chunks);
      const headers = forwardedHeaders(incoming.headers, incoming.socket.remoteAddress ?? '127.0.0.1');
      const tried = new Set<number>();
      const fail = (message: string) => {
        stats.failures += 1;
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(message);
      };
      const attempt = () => {
        const index = choose(tried);
        if (index === null) return fail('no process in rotation');
        tried.add(index);
        let connected = false;
        const upstream = httpRequest(
          {
            host: '127.0.0.1',
            port: backends[index]!.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...headers, 'content-length': String(body.length) },
            // A connection of its own: never a kept-alive one the process may be closing.
            agent: false,
          },
          (response) => {
            stats.served[index]! += 1;
            servedBy.push(index);
            const answerHeaders: IncomingHttpHeaders = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (!hopByHop.has(name)) answerHeaders[name] = value;
            }
            outgoing.writeHead(response.statusCode ?? 502, answerHeaders);
            response.pipe(outgoing);
            response.on('error', () => outgoing.destroy());
          },
        );
        upstream.on('socket', (socket) => socket.on('connect', () => (connected = true)));
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (!connected && error.code === 'ECONNREFUSED') {
            // Nothing of the request reached the process: the next one may take it.
            ready[index] = false;
            stats.retries += 1;
            attempt();
            return;
          }
          fail(`process ${index}: ${error.code ?? error.message}`);
        });
        upstream.end(body);
      };
      attempt();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    servedBy,
    inRotation: () => [...ready],
    async close() {
      polling = false;
      await pollLoop;
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}
