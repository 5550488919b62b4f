import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { shouldRetry, shouldRetryCurrentUser, shouldRetryUnlessNotFound } from './query-client.ts';

const failure = (status: number) => new ApiError(status, status === 401 ? 'UNAUTHORIZED' : 'INTERNAL', 'x');

describe('retry rules (spec §8)', () => {
  it('never retries the current user on 401 or 403', () => {
    expect(shouldRetryCurrentUser(0, failure(401))).toBe(false);
    expect(shouldRetryCurrentUser(0, failure(403))).toBe(false);
  });

  it('retries other failures up to 3 times', () => {
    expect(shouldRetryCurrentUser(2, failure(500))).toBe(true);
    expect(shouldRetryCurrentUser(3, failure(500))).toBe(false);
    expect(shouldRetryCurrentUser(0, new ApiError(0, 'NETWORK', 'offline'))).toBe(true);
    expect(shouldRetry(2, failure(502))).toBe(true);
    expect(shouldRetry(3, failure(502))).toBe(false);
  });

  it('does not retry other client errors of ordinary queries', () => {
    expect(shouldRetry(0, failure(404))).toBe(false);
  });

  it("never retries the portal's lookups on 404, retries their other failures up to 3 times", () => {
    expect(shouldRetryUnlessNotFound(0, failure(404))).toBe(false);
    expect(shouldRetryUnlessNotFound(0, failure(400))).toBe(true);
    expect(shouldRetryUnlessNotFound(2, failure(500))).toBe(true);
    expect(shouldRetryUnlessNotFound(3, failure(500))).toBe(false);
  });
});
