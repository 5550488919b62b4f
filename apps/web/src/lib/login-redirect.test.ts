import { describe, expect, it } from 'vitest';
import { loginPathFor, loginRedirectFor, loginRedirectTarget } from './login-redirect.ts';

describe('login redirect (spec §2)', () => {
  it('puts the attempted path in from, readable', () => {
    expect(loginPathFor('/brands')).toBe('/login?from=/brands');
    expect(loginPathFor('/a&b')).toBe('/login?from=/a%26b');
  });

  it('sends a page to login and back with its query string, kept out of the login URL', () => {
    const redirect = loginRedirectFor({ pathname: '/authenticate', search: '?client_id=a&state=b%26c' });
    expect(redirect).toEqual({
      to: '/login?from=/authenticate',
      state: { search: '?client_id=a&state=b%26c' },
    });
    expect(loginRedirectTarget('/authenticate', redirect.state)).toBe(
      '/authenticate?client_id=a&state=b%26c',
    );
  });

  it('returns to from with the carried query string re-appended', () => {
    expect(loginRedirectTarget('/brands', { search: '?x=1' })).toBe('/brands?x=1');
    expect(loginRedirectTarget('/brands', { search: 'x=1' })).toBe('/brands?x=1');
    expect(loginRedirectTarget('/brands', null)).toBe('/brands');
  });

  it('goes home without from, and never off the site', () => {
    expect(loginRedirectTarget(null, undefined)).toBe('/');
    expect(loginRedirectTarget('//evil.example', undefined)).toBe('/');
    expect(loginRedirectTarget('https://evil.example', undefined)).toBe('/');
    expect(loginRedirectTarget('/\\evil.example', undefined)).toBe('/');
  });

  it.each([
    ['/%09/evil.invalid/x'],
    ['/\t/evil.invalid/x'],
    ['/\n/evil.invalid'],
    ['/%5C/evil.invalid'],
    ['/%2F/evil.invalid'],
    ['/%252F/evil.invalid'.replace('%25', '%')],
    ['\t//evil.invalid'],
    ['javascript:alert(1)'],
    ['/%zz'],
  ])('refuses %j, which the browser would read as another site (or cannot read): home instead', (from) => {
    expect(loginRedirectTarget(from, undefined, 'https://shop.example')).toBe('/');
  });

  it('keeps a path of this origin with its own query and fragment', () => {
    expect(loginRedirectTarget('/brands?page=2#top', undefined, 'https://shop.example')).toBe(
      '/brands?page=2#top',
    );
    expect(loginRedirectTarget('/categories/7d1e', { search: '?x=1' }, 'https://shop.example')).toBe(
      '/categories/7d1e?x=1',
    );
  });
});

describe('login redirect: an open redirect through from stays on the origin (RFC 9700 §4.11)', () => {
  it.each([
    ['//evil.example'],
    ['///evil.example'],
    ['https://evil.example'],
    ['HTTPS://evil.example/brands'],
    ['https:evil.example'],
    ['https://shop.example.evil.example/'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/\\/evil.example'],
    ['%2F%2Fevil.example'],
    ['/%5C%5Cevil.example'],
    ['javascript:alert(document.cookie)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
  ])('from=%j goes home on the page origin, with or without a query carried', (from) => {
    expect(loginRedirectTarget(from, undefined, 'https://shop.example')).toBe('/');
    expect(loginRedirectTarget(from, { search: '?client_id=a' }, 'https://shop.example')).toBe(
      '/?client_id=a',
    );
  });
});
