import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/render.tsx';
import { currentUserQueryOptions } from './current-user.ts';
import { checkSessionEarly, takeEarlySessionCheck } from './fetch-current-user.ts';

const user = { id: 'u1', name: 'sara', email: 'sara@example.com', adminWorkspaces: [], workspaces: [] };

function serveUser() {
  const fetched = mockFetch([{ path: '/api/auth/user', body: { data: user } }]);
  vi.stubGlobal('fetch', fetched.fetchMock);
  return fetched;
}

const sessionQuestions = (calls: { url: string }[]) =>
  calls.filter((call) => call.url.includes('/auth/user'));

afterEach(() => {
  takeEarlySessionCheck()?.catch(() => undefined);
  vi.unstubAllGlobals();
});

describe('the session asked for at start', () => {
  it("is the first check's answer: one question to the server, not two", async () => {
    const { calls } = serveUser();
    checkSessionEarly();
    checkSessionEarly();
    expect(sessionQuestions(calls)).toHaveLength(1);
    const client = new QueryClient();
    await expect(client.fetchQuery(currentUserQueryOptions)).resolves.toEqual(user);
    expect(sessionQuestions(calls)).toHaveLength(1);
    // Taken once: a later check asks the server again.
    await client.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 });
    expect(sessionQuestions(calls)).toHaveLength(2);
  });

  it('leaves a failure to the check that takes it (no unhandled rejection meanwhile)', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    checkSessionEarly();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(takeEarlySessionCheck()).rejects.toMatchObject({ code: 'NETWORK' });
  });
});
