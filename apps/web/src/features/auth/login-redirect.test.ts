import { describe, expect, it } from 'vitest';
import { loginPathFor, loginRedirectTarget } from './login-redirect.ts';

describe('login redirect (spec §2)', () => {
  it('puts the attempted path in from, readable', () => {
    expect(loginPathFor('/brands')).toBe('/login?from=/brands');
    expect(loginPathFor('/a&b')).toBe('/login?from=/a%26b');
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
});
