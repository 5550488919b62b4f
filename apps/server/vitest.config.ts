import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * HTTP tests run in-process (`app.inject`) on an in-memory PGlite per file, or on PostgreSQL
 * when DATABASE_URL is set (a fresh database per file, created from that server).
 *
 * Two projects. `server`: the files share their worker's modules (`isolate: false`), so the app,
 * its libraries and the contract are imported once per worker instead of once per file. Each file
 * still builds its own app and database, and the server keeps no state in a module that one app
 * could leak to another (route tables and statement caches are keyed by app or by database). On
 * two cores this takes the project from ~520 s to ~150 s. `server-isolated`: the files that
 * replace a module (`vi.mock`) get modules of their own, as vitest does by default.
 */
const mocking = [
  'test/auth-session.test.ts',
  'test/data-dir-lock.test.ts',
  'test/oauth/client-authentication.test.ts',
  'test/route-table.test.ts',
];

const root = fileURLToPath(new URL('.', import.meta.url));
const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const common = { root, environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } as const;

export const serverProjects: TestProjectInlineConfiguration[] = [
  {
    test: {
      ...common,
      name: 'server',
      include,
      exclude: [...configDefaults.exclude, ...mocking],
      isolate: false,
    },
  },
  { test: { ...common, name: 'server-isolated', include: mocking } },
];

/** `vitest` run from this folder: the same two projects (the root config lists them by import). */
export default defineConfig({ test: { projects: serverProjects } });
