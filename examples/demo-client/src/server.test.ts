import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDukkan, startFakeDukkan } from './fake-dukkan-server.ts';
import { startDemoClient } from './server.ts';

// The demo client with the real openid-client, against a stand-in for Dukkan's endpoints.
let dukkan: FakeDukkan;
let demo: Server;
let demoUrl: string;

beforeEach(async () => {
  dukkan = await startFakeDukkan();
  demo = await startDemoClient({ dukkanUrl: dukkan.url, clientId: 'dukkan-demo', port: 0 });
  demoUrl = `http://localhost:${(demo.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => demo.close(resolve));
  await dukkan.close();
});

/** A browser, as far as this flow needs one: it keeps the session cookie and follows nothing by itself. */
class Browser {
  cookie = '';

  async go(url: string, method = 'GET'): Promise<Response> {
    const response = await fetch(new URL(url, demoUrl), {
      method,
      redirect: 'manual',
      headers: this.cookie ? { Cookie: this.cookie } : {},
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.includes('Max-Age=0') ? '' : setCookie.split(';')[0]!;
    return response;
  }

  /** Sign in with Dukkan → Dukkan's page (which signs Mona in at once) → the callback. */
  async signIn(): Promise<Response> {
    const login = await this.go('/login');
    expect(login.status).toBe(303);
    const authorize = new URL(login.headers.get('location')!);
    expect(authorize.origin + authorize.pathname).toBe(`${dukkan.url}/authenticate`);
    expect(authorize.searchParams.get('scope')).toBe('openid profile email');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${demoUrl}/callback`);
    const dukkanAnswer = await fetch(authorize, { redirect: 'manual' });
    return this.go(dukkanAnswer.headers.get('location')!);
  }
}

describe('the demo client with openid-client', () => {
  it('signs in, shows userinfo, refreshes, and signs out through the end-session page', async () => {
    const browser = new Browser();
    const callback = await browser.signIn();
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/');

    const home = await (await browser.go('/')).text();
    for (const shown of ['Mona Salem', 'mona@example.com', 'Cairo Shop', 'ws-9', 'expires at']) {
      expect(home).toContain(shown);
    }

    const refresh = await browser.go('/refresh', 'POST');
    expect(refresh.status).toBe(303);
    expect(await (await browser.go('/')).text()).toContain('Mona Salem');

    const logout = await browser.go('/logout', 'POST');
    expect(logout.status).toBe(303);
    const endSession = new URL(logout.headers.get('location')!);
    expect(endSession.origin + endSession.pathname).toBe(`${dukkan.url}/oidc/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${demoUrl}/`);
    expect(endSession.searchParams.get('client_id')).toBe('dukkan-demo');
    expect(endSession.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(dukkan.revoked).toHaveLength(1);
    expect(await (await browser.go('/')).text()).toContain('Sign in with Dukkan');
  });

  it('signs the user out when Dukkan revokes the tokens (the subscription expired)', async () => {
    const browser = new Browser();
    await browser.signIn();
    dukkan.revokeEverything();
    const home = await (await browser.go('/')).text();
    expect(home).toContain(
      'You were signed out: Dukkan no longer lets you into Demo app in this workspace: its subscription to Demo app has ended',
    );
    expect(home).not.toContain('grant request is invalid');
    expect(browser.cookie).toBe('');
  });

  it('shows access_denied when the workspace has not installed the app', async () => {
    dukkan.denyAccess = true;
    const callback = await new Browser().signIn();
    expect(callback.status).toBe(400);
    const page = await callback.text();
    expect(page).toContain('access_denied');
    expect(page).toContain('The workspace has not installed Demo app');
  });

  it('says Dukkan cannot be reached when it is not running', async () => {
    const closed = await startDemoClient({
      dukkanUrl: 'http://127.0.0.1:9',
      clientId: 'dukkan-demo',
      port: 0,
    });
    try {
      const port = (closed.address() as AddressInfo).port;
      const response = await fetch(`http://localhost:${port}/login`, { redirect: 'manual' });
      expect(response.status).toBe(502);
      expect(await response.text()).toContain('Could not reach Dukkan');
    } finally {
      await new Promise((resolve) => closed.close(resolve));
    }
  });
});
