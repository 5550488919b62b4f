/**
 * Preloaded into a server by catalogue-list.ts (`NODE_OPTIONS=--import …`) for the requests whose
 * SQL the bare baseline replays: appends every statement the process sends through a `pg` pool or
 * PGlite — its text, its parameters, and when it was sent and answered, so that statements sent
 * together can be replayed together — as a JSON line to the file named by BENCH_SQL_CAPTURE. Only
 * the short capture run loads it; the measured server runs unmodified.
 */
import { appendFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface CapturedStatement {
  text: string;
  params: unknown[];
  /**
   * The statement's name when the server sent it as a named prepared statement (`pg`'s
   * `{ name, text }`, as Drizzle's `.prepare(name)` does): parsed once per connection, then bound
   * and executed. The baseline sends it under the same name.
   */
  name?: string;
  /** `performance.now()` in the capturing process when the statement was sent, and answered. */
  sentMs: number;
  answeredMs: number;
}

const file = process.env.BENCH_SQL_CAPTURE;

type AnyQuery = (this: unknown, ...args: unknown[]) => unknown;

/** Wraps `prototype.query` to record each call once its promise settles. */
function capture(
  prototype: { query: AnyQuery },
  statementOf: (args: unknown[]) => [unknown, unknown, unknown?],
) {
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [text, params, name] = statementOf(args);
    const sentMs = performance.now();
    const result = original.apply(this, args);
    if (file && typeof text === 'string' && result instanceof Promise) {
      const record = () => {
        const statement: CapturedStatement = {
          text,
          params: Array.isArray(params) ? params : [],
          ...(typeof name === 'string' && name ? { name } : {}),
          sentMs,
          answeredMs: performance.now(),
        };
        appendFileSync(file, `${JSON.stringify(statement)}\n`);
      };
      result.then(record, record);
    }
    return result;
  };
}

if (file) {
  // The server's queries go through the pool (`pool.query`), as Drizzle sends them: a text and
  // values, or (prepared statements) a config `{ name, text, rowMode, types }` and the values.
  capture(pg.Pool.prototype as unknown as { query: AnyQuery }, ([config, values]) => {
    if (typeof config === 'string') return [config, values];
    const {
      text,
      name,
      values: configValues,
    } = (config ?? {}) as { text?: unknown; name?: unknown; values?: unknown };
    return [text, Array.isArray(values) ? values : configValues, name];
  });
  capture(PGlite.prototype as unknown as { query: AnyQuery }, ([text, params]) => [text, params]);
}
