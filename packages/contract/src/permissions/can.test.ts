import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../auth/current-user.ts';
import { can, grantIn, satisfies } from './can.ts';
import { allPermissionTags, isPermissionTag, permissionResources, permissionTag } from './tags.ts';

const shop = {
  id: 'w-shop',
  name: 'Shop',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};
const cafe = {
  id: 'w-cafe',
  name: 'Cafe',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};
const market = {
  id: 'w-market',
  name: 'Market',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};

function user(
  adminWorkspaces: (typeof shop)[],
  memberships: { workspace: typeof shop; tags: string[] }[],
): Pick<CurrentUser, 'adminWorkspaces' | 'workspaces'> {
  return {
    adminWorkspaces,
    workspaces: memberships.map(({ workspace, tags }) => ({
      workspaceId: workspace.id,
      workspace,
      role: {
        id: `r-${workspace.id}`,
        code: 'role',
        title: 'Role',
        permissions: tags.map((tag) => ({ tag })),
      },
    })),
  };
}

/** Admin of the shop; a cashier in the cafe (view products, add brands); nothing in the market. */
const sara = user([shop], [{ workspace: cafe, tags: ['viewProducts', 'addBrands'] }]);

describe('can(user, workspaceId, { and, or }) — spec §6', () => {
  it('an admin of the selected workspace passes every check', () => {
    expect(can(sara, shop.id, { and: ['deleteUsers', 'editTaxes'] })).toBe(true);
    expect(can(sara, shop.id, { or: ['viewPayments'] })).toBe(true);
    expect(can(sara, shop.id, { and: [...allPermissionTags], or: ['viewDashboard'] })).toBe(true);
    expect(can(sara, shop.id, {})).toBe(true);
  });

  it('admin of one workspace is not admin of another', () => {
    expect(can(sara, cafe.id, { and: ['deleteUsers'] })).toBe(false);
    expect(grantIn(sara, cafe.id).isAdmin).toBe(false);
  });

  it('and: every tag is needed', () => {
    expect(can(sara, cafe.id, { and: ['viewProducts'] })).toBe(true);
    expect(can(sara, cafe.id, { and: ['viewProducts', 'addBrands'] })).toBe(true);
    expect(can(sara, cafe.id, { and: ['viewProducts', 'editProducts'] })).toBe(false);
  });

  it('or: at least one tag is needed', () => {
    expect(can(sara, cafe.id, { or: ['editProducts', 'addBrands'] })).toBe(true);
    expect(can(sara, cafe.id, { or: ['editProducts', 'deleteBrands'] })).toBe(false);
  });

  it('and plus or: both must hold', () => {
    expect(can(sara, cafe.id, { and: ['viewProducts'], or: ['addBrands', 'viewTaxes'] })).toBe(true);
    expect(can(sara, cafe.id, { and: ['viewProducts'], or: ['viewTaxes'] })).toBe(false);
    expect(can(sara, cafe.id, { and: ['viewTaxes'], or: ['addBrands'] })).toBe(false);
  });

  it('empty lists are ignored', () => {
    expect(can(sara, cafe.id, { and: [], or: [] })).toBe(true);
    expect(can(sara, cafe.id, { and: [], or: ['addBrands'] })).toBe(true);
    expect(can(sara, cafe.id, { and: ['viewProducts'], or: [] })).toBe(true);
    expect(can(sara, cafe.id, { and: [], or: ['viewTaxes'] })).toBe(false);
  });

  it('a non-member holds nothing, not even for an empty requirement on a real tag', () => {
    expect(can(sara, market.id, { and: ['viewProducts'] })).toBe(false);
    expect(can(sara, market.id, { or: ['viewProducts'] })).toBe(false);
    expect(grantIn(sara, market.id)).toEqual({ isAdmin: false, tags: new Set() });
  });

  it('no selected workspace holds nothing', () => {
    expect(can(sara, null, { and: ['viewProducts'] })).toBe(false);
    expect(can(sara, undefined, { or: ['viewProducts'] })).toBe(false);
    expect(can(sara, '', { and: ['viewProducts'] })).toBe(false);
    expect(grantIn(sara, null).isAdmin).toBe(false);
  });

  it("the role's tags are those of the selected workspace only", () => {
    const two = user(
      [],
      [
        { workspace: cafe, tags: ['viewProducts'] },
        { workspace: market, tags: ['viewTaxes'] },
      ],
    );
    expect(can(two, cafe.id, { and: ['viewTaxes'] })).toBe(false);
    expect(can(two, market.id, { and: ['viewTaxes'] })).toBe(true);
    expect([...grantIn(two, cafe.id).tags]).toEqual(['viewProducts']);
  });

  it('satisfies works on a grant directly', () => {
    expect(satisfies({ isAdmin: true, tags: new Set() }, { and: ['deleteUsers'] })).toBe(true);
    expect(satisfies({ isAdmin: false, tags: new Set(['viewBrands']) }, { and: ['viewBrands'] })).toBe(true);
    expect(satisfies({ isAdmin: false, tags: new Set() }, { or: ['viewBrands'] })).toBe(false);
  });
});

describe('the permission tags', () => {
  it('tags are <action><Resource>; Dashboard is view only; ExchangeRate has no delete', () => {
    expect(permissionTag('view', 'Brands')).toBe('viewBrands');
    expect(allPermissionTags).toContain('viewDashboard');
    expect(allPermissionTags).not.toContain('addDashboard');
    expect(allPermissionTags).toEqual(
      expect.arrayContaining(['viewExchangeRate', 'addExchangeRate', 'editExchangeRate']),
    );
    expect(allPermissionTags).not.toContain('deleteExchangeRate');
    expect(new Set(allPermissionTags).size).toBe(allPermissionTags.length);
    // One tag per action each permission resource declares (today 16 with four, Dashboard with
    // one, ExchangeRate with three), so a resource's new permission line needs no count here.
    const declared = Object.values(permissionResources).reduce((sum, actions) => sum + actions.length, 0);
    expect(allPermissionTags).toHaveLength(declared);
    for (const [resource, actions] of Object.entries(permissionResources))
      for (const action of actions) expect(allPermissionTags).toContain(`${action}${resource}`);
  });

  it('isPermissionTag knows every tag', () => {
    expect(isPermissionTag('deleteProducts')).toBe(true);
    expect(isPermissionTag('deleteExchangeRate')).toBe(false);
    expect(isPermissionTag('viewproducts')).toBe(false);
    expect(isPermissionTag('')).toBe(false);
  });
});
