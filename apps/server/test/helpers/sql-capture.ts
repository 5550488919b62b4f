import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { TestDatabase } from './test-database.ts';

/** A statement the server sent, with what the test was doing then. */
export interface SentStatement {
  text: string;
  step: string;
}

/** The statements sent on a test database from `captureStatements` on, each named by the current `step`. */
export interface StatementCapture {
  statements: SentStatement[];
  /** What the following statements are for (a route, a job): named in a failure's message. */
  step: string;
}

type Queries = { query: (...args: unknown[]) => unknown; exec?: (...args: unknown[]) => unknown };

/**
 * Records the text of every statement sent on the test database from now on, through Drizzle or
 * its client directly, inside transactions too: on PGlite its `query`, `exec` and the
 * transactions' own; on PostgreSQL each pooled connection's `query` as it is checked out.
 */
export function captureStatements(database: TestDatabase): StatementCapture {
  const capture: StatementCapture = { statements: [], step: '' };
  const record = (statement: unknown) => {
    const text =
      typeof statement === 'string' ? statement : (statement as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') capture.statements.push({ text, step: capture.step });
  };
  const patched = new WeakSet<object>();
  const watch = (target: Queries) => {
    if (patched.has(target)) return;
    patched.add(target);
    for (const method of ['query', 'exec'] as const) {
      const original = target[method];
      if (typeof original !== 'function') continue;
      target[method] = function (this: unknown, ...args: unknown[]) {
        record(args[0]);
        return original.apply(this, args);
      };
    }
  };
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite') {
    const pglite = client as PGlite;
    watch(pglite as unknown as Queries);
    const transaction = pglite.transaction.bind(pglite);
    pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
      transaction((tx) => {
        watch(tx as unknown as Queries);
        return callback(tx);
      })) as PGlite['transaction'];
  } else {
    (client as pg.Pool).on('acquire', (connection) => watch(connection as unknown as Queries));
  }
  return capture;
}
