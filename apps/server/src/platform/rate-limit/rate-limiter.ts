import { setTimeout as wait } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RateLimitRule, SlowdownRule } from '../../config.ts';
import { AppError } from '../../errors.ts';

/** Counts attempts per key; over the limit it throws `RATE_LIMITED`. One instance per rule. */
export interface RateLimiter {
  /** Counts one attempt and returns how many are left; throws `RATE_LIMITED` once over the limit. */
  consume(key: string): Promise<number>;
  /** Forgets a key's attempts (a successful login clears that account's failures at that address). */
  reset(key: string): Promise<void>;
}

/**
 * Counts failures per key and never refuses: every attempt first waits a delay that grows with
 * the key's recent failures, up to a cap. Used where refusing would let anyone lock a person out
 * (the failures of an account from every address).
 */
export interface Slowdown {
  /** Waits as long as the key's recent failures ask, and returns that delay in milliseconds. */
  wait(key: string): Promise<number>;
  /** Counts one failure. */
  fail(key: string): Promise<void>;
}

/** Waits `ms` milliseconds; tests pass one that records the delay and returns at once. */
export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = async (ms) => {
  await wait(ms);
};

/**
 * Where the counts live: in this process (one server on the embedded database), in Redis, or in
 * the PostgreSQL database the instances share (the table `rate_limits`, made by the migrations).
 */
export type RateLimitStore =
  | { kind: 'memory' }
  | { kind: 'redis'; client: Redis }
  | { kind: 'postgres'; pool: pg.Pool };

/** The store of an app: Redis when configured, else the shared PostgreSQL, else this process. */
export function chooseRateLimitStore(redis: Redis | undefined, pool: pg.Pool | undefined): RateLimitStore {
  if (redis) return { kind: 'redis', client: redis };
  if (pool) return { kind: 'postgres', pool };
  return { kind: 'memory' };
}

/** The start's log line on where the limits count. */
export function describeRateLimitStore(store: RateLimitStore): string {
  switch (store.kind) {
    case 'redis':
      return 'rate limits are counted in Redis (REDIS_URL), shared by every instance';
    case 'postgres':
      return 'rate limits are counted in PostgreSQL (table rate_limits), shared by every instance on this database';
    case 'memory':
      return 'rate limits are counted in this process (the embedded database serves one process)';
  }
}

function createCounter(name: string, points: number, durationSeconds: number, store: RateLimitStore) {
  const options = { keyPrefix: `dukkan:rl:${name}`, points, duration: durationSeconds };
  switch (store.kind) {
    case 'redis':
      return new RateLimiterRedis({ ...options, storeClient: store.client, useRedisPackage: false });
    case 'postgres':
      // One table for every limit (the key starts with the limit's prefix), made by migration
      // 0017: the store must not create its own. Each attempt is one upsert, atomic in PostgreSQL.
      return new RateLimiterPostgres({
        ...options,
        storeClient: store.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
      });
    case 'memory':
      return new RateLimiterMemory(options);
  }
}

export function createRateLimiter(name: string, rule: RateLimitRule, store: RateLimitStore): RateLimiter {
  const limiter = createCounter(name, rule.points, rule.durationSeconds, store);
  return {
    async consume(key) {
      try {
        return (await limiter.consume(key)).remainingPoints;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          throw new AppError('RATE_LIMITED', 'Too many attempts, please try again later', {
            retryAfter: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
          });
        }
        throw rejection;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** The delay before an attempt once `failures` have been counted: doubling after the free ones, capped. */
export function slowdownDelayMs(failures: number, rule: SlowdownRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (failures - rule.freeFailures));
}

export function createSlowdown(
  name: string,
  rule: SlowdownRule,
  store: RateLimitStore,
  sleep: Sleep = realSleep,
): Slowdown {
  // The counter's own limit is never met: penalty() counts without refusing.
  const counter = createCounter(name, Number.MAX_SAFE_INTEGER, rule.durationSeconds, store);
  return {
    async wait(key) {
      const delay = slowdownDelayMs((await counter.get(key))?.consumedPoints ?? 0, rule);
      if (delay > 0) await sleep(delay);
      return delay;
    },
    async fail(key) {
      await counter.penalty(key, 1);
    },
  };
}
