import { appClientHeader } from '@dukkan/contract';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, apiUpload, isOfflineError } from './api-client.ts';
import { clearSecondFactorRequired, useSecondFactorRequired } from './second-factor-required.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function stubFetch() {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify({ data: { success: true } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the API client', () => {
  it('reports a SECOND_FACTOR_REQUIRED refusal for the shell, and no other 403', async () => {
    clearSecondFactorRequired();
    const { result } = renderHook(() => useSecondFactorRequired());
    const refusal = (code: string) => async () =>
      new Response(
        JSON.stringify({ error: { statusCode: 403, code, name: 'Refused', message: 'Refused' } }),
        { status: 403, headers: { 'content-type': 'application/json' } },
      );
    vi.stubGlobal('fetch', refusal('FORBIDDEN'));
    await apiRequest('/products').catch(() => undefined);
    expect(result.current).toBe(false);
    vi.stubGlobal('fetch', refusal('SECOND_FACTOR_REQUIRED'));
    const failure = await apiRequest('/products').catch((error: unknown) => error);
    expect((failure as ApiError).code).toBe('SECOND_FACTOR_REQUIRED');
    await vi.waitFor(() => expect(result.current).toBe(true));
    clearSecondFactorRequired();
  });

  it("marks every request as the app's own (GET auth/logout ends a session only for it)", async () => {
    const fetchMock = stubFetch();
    await apiRequest('/auth/logout');
    await apiRequest('/auth/login', { method: 'POST', body: { email: 'a@b.c', password: 'x' } });
    await apiUpload('/files', 'file', [new File(['x'], 'x.png')]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    for (const [, init] of fetchMock.mock.calls) {
      expect(init?.credentials).toBe('include');
      const headers = (init?.headers ?? {}) as Record<string, string>;
      expect(headers[appClientHeader.name]).toBe(appClientHeader.value);
    }
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api//auth/logout');
  });

  it('keeps the whole answer of a refusal that is not the API error shape (OAuth `{ error, error_description }`)', async () => {
    const answer = { error: 'access_denied', error_description: 'The workspace refused' };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(answer), { status: 403 }));
    const failure = await apiRequest('/oauth/authorize/client-side').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).statusCode).toBe(403);
    expect((failure as ApiError).payload).toEqual(answer);
  });

  it('refuses a change while the browser is offline without sending it; a read still goes to fetch', async () => {
    const fetchMock = stubFetch();
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    const failure = await apiRequest('/taxes', { method: 'POST', body: { name: 'VAT' } }).catch(
      (error: unknown) => error,
    );
    expect(isOfflineError(failure)).toBe(true);
    expect((failure as ApiError).code).toBe('NETWORK');
    expect(fetchMock).not.toHaveBeenCalled();
    await apiRequest('/taxes');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns a fetch that cannot reach the server into a NETWORK error (not the offline one)', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const failure = await apiRequest('/taxes', { method: 'POST', body: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('NETWORK');
    expect(isOfflineError(failure)).toBe(false);
  });
});
