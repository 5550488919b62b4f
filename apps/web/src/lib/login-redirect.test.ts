import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  forgetLoginReturn,
  landingAfterSignIn,
  loginPathFor,
  loginRedirectFor,
  loginRedirectTarget,
  loginReturnState,
  type SignInAccess,
  withLoginReturn,
} from './login-redirect.ts';

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
    // Off the site only once resolved: the dot segments go and leave `//evil.example`.
    ['/.//evil.example'],
    ['/./\\evil.example'],
    ['/brands/..//evil.example'],
    ['/%2E%2E//evil.example'],
    ['/.%2F/evil.example'],
  ])('from=%j goes home on the page origin, with or without a query carried', (from) => {
    expect(loginRedirectTarget(from, undefined, 'https://shop.example')).toBe('/');
    expect(loginRedirectTarget(from, { search: '?client_id=a' }, 'https://shop.example')).toBe(
      '/?client_id=a',
    );
  });
});

describe('landing after sign-in: from if it may be opened, else /, else the first page of the menu', () => {
  const origin = 'https://shop.example';
  /** Pages a made-up member may or may not open; any other path refuses no one (a page not found). */
  const guarded = ['/', '/brands', '/products', '/products/add', '/users', '/taxes', '/settings'] as const;
  const menu = ['/', '/brands', '/products', '/taxes', '/users', '/settings'];
  const accessFor = (allowed: ReadonlySet<string>): SignInAccess => ({
    mayOpen: (pathname) => !(guarded as readonly string[]).includes(pathname) || allowed.has(pathname),
    menu,
  });
  const evil = [
    '/.//evil.test',
    '/./\\evil.test',
    '/brands/..//evil.test',
    '/brands/../..//evil.test',
    '/%2E%2E//evil.test',
    '/.%2F/evil.test',
    '//evil.test',
    '/\\evil.test',
    'https://evil.test/',
    'javascript:alert(1)',
    '/%09/evil.test',
  ];
  const pathOf = (target: string) => new URL(target, origin).pathname;

  it('goes to from when the member may open it, with its query', () => {
    const access = accessFor(new Set(['/brands']));
    expect(landingAfterSignIn('/brands', { search: '?page=2' }, access, origin)).toBe('/brands?page=2');
    expect(landingAfterSignIn('/nowhere', undefined, access, origin)).toBe('/nowhere');
  });

  it('goes to the dashboard instead of a page the member may not open, if they may open it', () => {
    const access = accessFor(new Set(['/', '/brands']));
    expect(landingAfterSignIn('/users', { search: '?x=1' }, access, origin)).toBe('/');
    expect(landingAfterSignIn(null, undefined, access, origin)).toBe('/');
  });

  it('without the dashboard, goes to the first page of the menu the member may open', () => {
    const clerk = accessFor(new Set(['/products', '/taxes']));
    expect(landingAfterSignIn(null, undefined, clerk, origin)).toBe('/products');
    expect(landingAfterSignIn('/', undefined, clerk, origin)).toBe('/products');
    expect(landingAfterSignIn('/users', undefined, clerk, origin)).toBe('/products');
    expect(landingAfterSignIn('/taxes', undefined, clerk, origin)).toBe('/taxes');
  });

  it.each(evil)(
    'from=%j (off the site once resolved) lands on a page of the site the member may open',
    (from) => {
      expect(landingAfterSignIn(from, undefined, accessFor(new Set(['/'])), origin)).toBe('/');
      expect(landingAfterSignIn(from, undefined, accessFor(new Set(['/taxes'])), origin)).toBe('/taxes');
    },
  );

  it('property: always a path of this origin the member may open, and from itself whenever allowed', () => {
    const from = fc.oneof(
      fc.constantFrom(null, ...guarded, ...evil, '/nowhere', '/brands?page=2#top', '/products/7'),
      fc.string(),
      fc.webPath(),
      fc.webUrl(),
    );
    const allowed = fc.subarray([...guarded]).map((paths) => new Set<string>(paths));
    const search = fc.option(fc.constantFrom('?a=1', 'b=2', '?', ''), { nil: undefined });
    fc.assert(
      fc.property(from, allowed, search, (from, allowed, search) => {
        const access = accessFor(allowed);
        const state = search === undefined ? undefined : { search };
        const landed = landingAfterSignIn(from, state, access, origin);
        // On this site, never a path the browser reads as another host.
        expect(landed.startsWith('/') && !landed.startsWith('//')).toBe(true);
        const url = new URL(landed, origin);
        expect(url.origin).toBe(origin);
        expect(url.pathname.startsWith('//')).toBe(false);
        // A page the member may open, whenever there is one in the menu.
        if (menu.some((path) => access.mayOpen(path))) expect(access.mayOpen(pathOf(landed))).toBe(true);
        const target = loginRedirectTarget(from, state, origin);
        if (access.mayOpen(pathOf(target))) expect(landed).toBe(target);
        else if (access.mayOpen('/')) expect(landed).toBe('/');
        else expect(landed).toBe(menu.find((path) => access.mayOpen(path)) ?? target);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the return of a sign-in kept for the tab (decision 0034)', () => {
  const portal = { search: '?client_id=dukkan-demo&interaction=abc' };

  it('finds the query again for the same from, after a reload or a detour that lost the state', () => {
    forgetLoginReturn();
    expect(loginReturnState('/authenticate', portal)).toBe(portal);
    expect(loginReturnState('/authenticate', null)).toEqual(portal);
    // A detour's link back keeps from; the invitation's email, if any, stays beside it.
    expect(loginReturnState('/authenticate', { email: 'sara@example.com' })).toEqual({
      ...portal,
      email: 'sara@example.com',
    });
  });

  it('gives it to no other from, and forgets it once signed in', () => {
    forgetLoginReturn();
    loginReturnState('/authenticate', portal);
    expect(loginReturnState('/brands', null)).toBeNull();
    expect(loginReturnState(null, null)).toBeNull();
    forgetLoginReturn();
    expect(loginReturnState('/authenticate', null)).toBeNull();
  });

  it('a newer query replaces the older one', () => {
    forgetLoginReturn();
    loginReturnState('/authenticate', portal);
    loginReturnState('/authenticate', { search: '?client_id=other' });
    expect(loginReturnState('/authenticate', undefined)).toEqual({ search: '?client_id=other' });
    forgetLoginReturn();
  });

  it('links the detour and the way back with from', () => {
    expect(withLoginReturn('/forgot-password', '/authenticate')).toBe('/forgot-password?from=/authenticate');
    expect(withLoginReturn('/login', '/a&b')).toBe('/login?from=/a%26b');
    expect(withLoginReturn('/login', null)).toBe('/login');
  });
});
