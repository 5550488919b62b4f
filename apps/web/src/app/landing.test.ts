import { allPermissionTags, type PermissionTag } from '@dukkan/contract';
import fc from 'fast-check';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { landingAfterSignIn } from '../lib/login-redirect.ts';
import { selectedWorkspaceStorageKey } from '../lib/workspace-selection.ts';
import { testUser } from '../test/render.tsx';
import { signInAccess } from './landing.ts';
import { navigation, openablePages } from './navigation.ts';
import { screens } from './screens.ts';

const origin = 'https://shop.example';
const shop = { id: 'w-shop', name: 'Shop' };
const cafe = { id: 'w-cafe', name: 'Cafe' };
const land = (user: ReturnType<typeof testUser>, from: string | null, state?: unknown) =>
  landingAfterSignIn(from, state, signInAccess(user), origin);

/** Would the page at this path show the refusal to this user (its screen's guard)? */
function refused(user: ReturnType<typeof testUser>, target: string): boolean {
  const pathname = new URL(target, origin).pathname;
  const routes = Object.values(screens).map((screen) => ({ path: screen.path, screen }));
  const screen = matchRoutes(routes, pathname)?.[0]?.route.screen;
  return Boolean(screen?.requirement) && !signInAccess(user).mayOpen(pathname);
}

afterEach(() => localStorage.clear());

describe('landing after sign-in, with the app’s screens and menu (spec §4, decision 0018)', () => {
  const clerk = testUser([{ ...shop, grant: ['viewProducts', 'addProducts', 'viewCustomers'] }]);
  const viewer = testUser([{ ...shop, grant: ['viewProducts'] }]);
  const manager = testUser([{ ...shop, grant: ['viewApplications', 'viewBrands'] }]);
  const admin = testUser([{ ...shop, grant: 'admin' }]);

  it('a clerk without viewApplications lands on the first page of their menu, Products', () => {
    expect(land(clerk, null)).toBe('/products');
    expect(land(clerk, '/')).toBe('/products');
    expect(land(clerk, '/users')).toBe('/products');
  });

  it('from is kept when the member may open it, sub-pages and query included', () => {
    expect(land(clerk, '/customers', { search: '?page=2' })).toBe('/customers?page=2');
    expect(land(clerk, '/products/add')).toBe('/products/add');
    expect(land(viewer, '/products/7d1e')).toBe('/products/7d1e');
    // Not the add page without addProducts: the first page they may open instead.
    expect(land(viewer, '/products/add')).toBe('/products');
    // Every member may open their profile, the portal and a page that is not found.
    expect(land(viewer, '/profile')).toBe('/profile');
    expect(land(viewer, '/authenticate', { search: '?client_id=pos' })).toBe('/authenticate?client_id=pos');
    expect(land(viewer, '/no-such-page')).toBe('/no-such-page');
  });

  it('a member who may open the dashboard lands there instead of a refused page (spec §4: from or /)', () => {
    expect(land(manager, '/users')).toBe('/');
    expect(land(manager, null)).toBe('/');
    expect(land(manager, '/brands')).toBe('/brands');
    expect(land(admin, '/users')).toBe('/users');
    expect(land(admin, null)).toBe('/');
  });

  it('a member whose role opens nothing lands on a page every member may open, not a refusal', () => {
    const nobody = testUser([{ ...shop, grant: [] }]);
    const landed = land(nobody, null);
    expect(refused(nobody, landed)).toBe(false);
    expect(landed).toBe(openablePages(navigation, (requirement) => requirement === null, '')[0]?.path);
  });

  it('judges the workspace the shell will open: the stored one while it is still the member’s', () => {
    const both = testUser([
      { ...shop, grant: ['viewProducts'] },
      { ...cafe, grant: 'admin' },
    ]);
    // None stored: the first of the member's workspaces (those they administer come first).
    expect(land(both, '/users')).toBe('/users');
    localStorage.setItem(selectedWorkspaceStorageKey, shop.id);
    expect(land(both, '/users')).toBe('/products');
    localStorage.setItem(selectedWorkspaceStorageKey, 'gone');
    expect(land(both, '/users')).toBe('/users');
  });

  it.each(['/.//evil.test', '/./\\evil.test', '/brands/..//evil.test'])(
    'from=%j lands on a page of the site the member may open',
    (from) => {
      expect(land(clerk, from)).toBe('/products');
      expect(land(manager, from)).toBe('/');
    },
  );

  it('property: any role, any from — a page of this site the member may open, from itself when allowed', () => {
    const tags = fc.subarray([...allPermissionTags]) as fc.Arbitrary<PermissionTag[]>;
    const paths = [
      ...Object.values(screens).map((screen) => screen.path.replace('/*', '/x').replace(':id', '42')),
      '/authenticate',
      '/nowhere',
      '/.//evil.test',
      '/./\\evil.test',
      '/brands/..//evil.test',
      '//evil.test',
    ];
    fc.assert(
      fc.property(tags, fc.option(fc.constantFrom(...paths), { nil: null }), (grant, from) => {
        const user = testUser([{ ...shop, grant }]);
        const landed = land(user, from);
        expect(landed.startsWith('/') && !landed.startsWith('//')).toBe(true);
        expect(new URL(landed, origin).origin).toBe(origin);
        expect(refused(user, landed)).toBe(false);
        if (from && !refused(user, from) && !from.includes('evil')) expect(landed).toBe(from);
      }),
      { numRuns: 300 },
    );
  });
});
