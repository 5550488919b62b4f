import { describe, expect, it } from 'vitest';
import { describeExpiry, errorPage, signedInPage, signedOutPage } from './pages.ts';
import type { SignedIn } from './sessions.ts';

const now = Date.UTC(2026, 0, 1, 10, 0, 0);

const signedIn: SignedIn = {
  tokens: { accessToken: 'at', accessTokenExpiresAt: now + 60 * 60_000, refreshToken: 'rt', idToken: 'it' },
  user: {
    sub: 'user-1',
    name: 'Mona <script>',
    email: 'mona@example.com',
    picture: 'https://example.com/a.png?x=1&y="2"',
    workspace_id: 'ws-9',
    workspace_name: 'Cairo & Co',
  },
};

describe('pages', () => {
  it('all declare the language, the charset and the viewport', () => {
    for (const html of [signedOutPage(), signedInPage(signedIn, now), errorPage('Oops', 'access_denied')]) {
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<meta charset="utf-8">');
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    }
  });

  it('signed out: the sign-in button, and a notice when there is one, escaped', () => {
    expect(signedOutPage()).toContain('<a class="button" href="/login">Sign in with Dukkan</a>');
    expect(signedOutPage()).not.toContain('class="notice"');
    expect(signedOutPage('You were signed out: <gone>')).toContain('You were signed out: &lt;gone&gt;');
  });

  it('signed in: the user, the workspace, the expiry, and Refresh and Sign out forms, all escaped', () => {
    const html = signedInPage(signedIn, now);
    expect(html).toContain('Mona &lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('mona@example.com');
    expect(html).toContain('<img src="https://example.com/a.png?x=1&amp;y=&quot;2&quot;" alt="">');
    expect(html).toContain('Cairo &amp; Co');
    expect(html).toContain('ws-9');
    expect(html).toContain('expires at 2026-01-01 11:00:00 UTC (in 60 min)');
    expect(html).toContain('<form method="post" action="/refresh">');
    expect(html).toContain('<form method="post" action="/logout">');
  });

  it('an error page names the error, its description and the way home', () => {
    const html = errorPage(
      'Sign-in did not succeed',
      'access_denied',
      'The workspace has not installed <this> app',
    );
    expect(html).toContain('<strong>access_denied</strong>');
    expect(html).toContain('The workspace has not installed &lt;this&gt; app');
    expect(html).toContain('<a href="/">');
  });
});

describe('describeExpiry', () => {
  it('says when, and how long until or since', () => {
    expect(describeExpiry(now + 30_000, now)).toBe(
      'expires at 2026-01-01 10:00:30 UTC (in less than a minute)',
    );
    expect(describeExpiry(now - 5 * 60_000, now)).toBe('expired at 2026-01-01 09:55:00 UTC (5 min ago)');
    expect(describeExpiry(undefined, now)).toBe('Dukkan did not say when it expires');
  });
});
