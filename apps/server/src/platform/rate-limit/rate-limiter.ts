import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitRule } from '../../config.ts';
import { AppError } from '../../http/errors.ts';

/** Counts attempts per key; over the limit it throws `RATE_LIMITED`. One instance per rule. */
export interface RateLimiter {
  /** Counts one attempt; throws `RATE_LIMITED` once the key is over its limit. */
  consume(key: string): Promise<void>;
  /** Forgets a key's attempts (a successful login clears the account's failures). */
  reset(key: string): Promise<void>;
}

export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

export function createRateLimiter(name: string, rule: RateLimitRule, store: RateLimitStore): RateLimiter {
  const options = { keyPrefix: `dukkan:rl:${name}`, points: rule.points, duration: rule.durationSeconds };
  const limiter =
    store.kind === 'redis'
      ? new RateLimiterRedis({ ...options, storeClient: store.client, useRedisPackage: false })
      : new RateLimiterMemory(options);
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
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
