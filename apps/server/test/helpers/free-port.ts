import { createServer } from 'node:net';

/**
 * A loopback port free at the time of asking, for a server process a test, benchmark or
 * reliability run starts (the process itself cannot report a port 0 it was given).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}
