import { describe, expect, it, vi } from 'vitest';
import { startBootDownloads } from './boot.ts';

/** The downloads a path starts, with the session check observed once the chunk has run. */
async function started(path: string) {
  const checkSession = vi.fn();
  const loadQueryRoot = vi.fn(async () => ({ checkSession }));
  const { signedIn } = startBootDownloads(path, { loadQueryRoot });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { queryRoot: loadQueryRoot.mock.calls.length, session: checkSession.mock.calls.length, signedIn };
}

describe('startBootDownloads', () => {
  it('a page of the signed-in area: server state, the session and its texts, at once', async () => {
    expect(await started('/brands')).toEqual({ queryRoot: 1, session: 1, signedIn: true });
    expect(await started('/')).toEqual({ queryRoot: 1, session: 1, signedIn: true });
  });

  it('the sign-in portal: the session, without the signed-in texts', async () => {
    expect(await started('/authenticate')).toEqual({ queryRoot: 1, session: 1, signedIn: false });
  });

  it('another public page: server state only; the login page: nothing', async () => {
    expect(await started('/forgot-password')).toEqual({ queryRoot: 1, session: 0, signedIn: false });
    expect(await started('/login')).toEqual({ queryRoot: 0, session: 0, signedIn: false });
  });

  it('a chunk that fails to download is left to the page that needs it', async () => {
    const loadQueryRoot = () => Promise.reject(new Error('offline'));
    expect(() => startBootDownloads('/brands', { loadQueryRoot })).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
