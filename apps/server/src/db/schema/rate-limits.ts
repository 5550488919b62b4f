import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The rate limits' counters when several instances share PostgreSQL and no Redis
 * (platform/rate-limit/rate-limiter.ts): rate-limiter-flexible's PostgreSQL store reads and
 * writes these three columns under these names. One row per limited key (`dukkan:rl:<limit>:<key>`),
 * `expire` in epoch milliseconds; rows an hour past it are swept by the store.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
