import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeEarlySessionCheck } from '../lib/fetch-current-user.ts';
import { mockFetch } from '../test/render.tsx';
import { startFirstPage } from './routes.tsx';

const sessionQuestions = (calls: { url: string }[]) =>
  calls.filter((call) => call.url.includes('/auth/user'));

afterEach(() => {
  takeEarlySessionCheck()?.catch(() => undefined);
  vi.unstubAllGlobals();
});

describe('what the first page asks for at start', () => {
  it('is asked by a signed-in page and the portal, never by the login page or another public page', () => {
    const { calls, fetchMock } = mockFetch([{ path: '/api/auth/user', body: { data: null } }]);
    vi.stubGlobal('fetch', fetchMock);
    startFirstPage('/login');
    startFirstPage('/forgot-password');
    startFirstPage('/accept-invite');
    expect(takeEarlySessionCheck()).toBeUndefined();
    startFirstPage('/authenticate');
    expect(takeEarlySessionCheck()).toBeDefined();
    startFirstPage('/brands');
    expect(takeEarlySessionCheck()).toBeDefined();
    expect(sessionQuestions(calls)).toHaveLength(2);
  });
});
