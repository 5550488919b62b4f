import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * One thing the server needs to serve requests, checked on every readiness request: `check`
 * resolves when it answers, rejects (or outlasts the timeout) when it does not. The list is open:
 * any driver with a `check()` (a file store, a cache) adds a probe of its own in `buildApp`.
 */
export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

export type ProbeResult = 'ok' | 'unavailable' | 'timeout';

export interface Readiness {
  ready: boolean;
  checks: Record<string, ProbeResult>;
}

/** How long one probe may take before it counts as failed. */
export const probeTimeoutMs = 1000;

/** Runs every probe at once, each within `timeoutMs`: ready when all answered in time. */
export async function checkReadiness(
  probes: readonly ReadinessProbe[],
  timeoutMs = probeTimeoutMs,
  onFailure?: (name: string, error: unknown) => void,
): Promise<Readiness> {
  const results = await Promise.all(
    probes.map(async (probe): Promise<[string, ProbeResult]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(resolve, timeoutMs, 'timeout');
      });
      try {
        const outcome = await Promise.race([probe.check().then(() => 'ok' as const), timeout]);
        if (outcome === 'timeout') onFailure?.(probe.name, new Error(`no answer within ${timeoutMs} ms`));
        return [probe.name, outcome];
      } catch (error) {
        onFailure?.(probe.name, error);
        return [probe.name, 'unavailable'];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
}

/** The newest migration of a migrations folder (its journal's last entry's timestamp). */
export async function newestMigration(migrationsFolder: string): Promise<number> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

/**
 * The database answers, and has every migration this code needs: the newest one it recorded
 * (drizzle's `__drizzle_migrations.created_at`, the journal's `when`) is not older than this
 * code's newest. A newer one (a newer version migrated it during a rolling deploy) is fine: each
 * migration keeps the previous version working.
 */
export function databaseProbe(db: Database, newest: number): ReadinessProbe {
  return {
    name: 'database',
    async check() {
      const result = await db.execute(
        sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
      );
      // Both drivers answer `{ rows }`; Drizzle's type names neither.
      const [row] = (result as unknown as { rows: { newest: string | null }[] }).rows;
      const recorded = Number(row?.newest ?? 0);
      if (recorded < newest) {
        throw new Error(`migrations behind: the database's newest is ${recorded}, this version's ${newest}`);
      }
    },
  };
}

/** Redis answers a PING (rate-limit counters shared between instances). */
export function redisProbe(client: { ping(): Promise<string> }): ReadinessProbe {
  return {
    name: 'redis',
    async check() {
      await client.ping();
    },
  };
}
