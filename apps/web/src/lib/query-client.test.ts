import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, isOfflineError } from './api-client.ts';
import {
  createQueryClient,
  shouldRetry,
  shouldRetryCurrentUser,
  shouldRetryUnlessNotFound,
} from './query-client.ts';

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

describe('a change made while offline', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.unstubAllGlobals();
  });

  it('fails at once with the offline error, is not paused, and is never sent when the network returns', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ data: { id: 't1' } }), { status: 201 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    onlineManager.setOnline(false);
    const client = createQueryClient();
    const save = new MutationObserver(client, {
      mutationFn: (input: { name: string }) => apiRequest('/taxes', { method: 'POST', body: input }),
    });
    const failure = await save.mutate({ name: 'VAT' }).catch((error: unknown) => error);
    expect(isOfflineError(failure)).toBe(true);
    expect(save.getCurrentResult()).toMatchObject({ status: 'error', isPaused: false });

    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    onlineManager.setOnline(true);
    await client.resumePausedMutations();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(
      client
        .getMutationCache()
        .getAll()
        .filter((mutation) => mutation.state.isPaused),
    ).toHaveLength(0);
  });
});
