import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageArea, publicPages } from './pages.ts';

describe('pageArea', () => {
  it('names the login page, the portal, the other public pages and the signed-in area', () => {
    expect(pageArea('/login')).toBe('login');
    expect(pageArea('/authenticate?client_id=app')).toBe('portal');
    for (const path of [publicPages.forgotPassword, publicPages.acceptInvite, publicPages.notFound])
      expect(pageArea(path), path).toBe('public');
    for (const path of ['/', '/brands', '/brands/new', '/loginx', '/authenticated', '/settings'])
      expect(pageArea(path), path).toBe('signedIn');
  });

  it('ignores a query, a fragment, repeated and trailing slashes', () => {
    const decorations = fc.record({
      slashes: fc.integer({ min: 1, max: 3 }),
      trailing: fc.integer({ min: 0, max: 2 }),
      query: fc.constantFrom('', '?lng=ar', '?from=%2Fbrands#top', '#x'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(publicPages), '/brands'), decorations, (path, d) => {
        const url = `${'/'.repeat(d.slashes)}${path.slice(1)}${'/'.repeat(d.trailing)}${d.query}`;
        expect(pageArea(url)).toBe(pageArea(path));
      }),
    );
  });
});
