import { setTimeout as wait } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
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

export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

function createCounter(name: string, points: number, durationSeconds: number, store: RateLimitStore) {
  const options = { keyPrefix: `dukkan:rl:${name}`, points, duration: durationSeconds };
  return store.kind === 'redis'
    ? new RateLimiterRedis({ ...options, storeClient: store.client, useRedisPackage: false })
    : new RateLimiterMemory(options);
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
