/**
 * The environment of a real server process a test starts (`src/main.ts`): nothing of the test
 * runner's own, an ephemeral port on loopback, plus what the test sets.
 */
export function serverProcessEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  };
}
