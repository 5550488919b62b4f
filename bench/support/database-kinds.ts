/**
 * Which databases a benchmark measures and how its report names them, and what it could not
 * measure: no server module is loaded here (the machinery of a fresh database is databases.ts).
 */

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases to measure: `BENCH_DATABASES` (default `pglite,postgres`). */
export function benchDatabases(): DatabaseKind[] {
  return (process.env.BENCH_DATABASES ?? 'pglite,postgres')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry): entry is DatabaseKind => entry === 'pglite' || entry === 'postgres');
}

export const databaseName = (database: DatabaseKind) =>
  database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL';

/** A database the benchmark could not measure, and why. */
export interface Skipped {
  database: DatabaseKind;
  reason: string;
}
