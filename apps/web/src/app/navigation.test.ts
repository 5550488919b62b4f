import {
  type CurrentUser,
  can,
  type PermissionRequirement,
  type ResourceDefinition,
  resources,
} from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import {
  buildNavigation,
  menuOf,
  type NavGroupEntry,
  type NavLinkEntry,
  navigation,
  openablePages,
  type VisibleNavEntry,
} from './navigation.ts';

const workspace = {
  id: 'w1',
  name: 'Store',
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
};
function userWith(tags: string[], admin = false): CurrentUser {
  return {
    id: 'u',
    name: 'Sara',
    email: 's@example.com',
    phone: null,
    profilePicture: null,
    language: 'en',
    hasSecondFactor: false,
    sessionFactors: ['pwd'],
    adminWorkspaces: admin ? [workspace] : [],
    workspaces: [
      {
        workspaceId: 'w1',
        workspace,
        role: { id: 'r', code: 'staff', title: 'Staff', permissions: tags.map((tag) => ({ tag })) },
      },
    ],
  };
}

function visibleFor(user: CurrentUser, pathname = '/') {
  return buildNavigation(
    navigation,
    (requirement: PermissionRequirement | null) => requirement === null || can(user, 'w1', requirement),
    pathname,
  );
}

const group = (entries: VisibleNavEntry[], key: NavGroupEntry['key']) =>
  entries.find(
    (entry): entry is NavGroupEntry & { active: boolean } => entry.kind === 'group' && entry.key === key,
  );
const paths = (entries: VisibleNavEntry[]) =>
  entries.flatMap((entry) => (entry.kind === 'link' ? [entry.path] : entry.links.map((item) => item.path)));

describe('navigation (spec §2)', () => {
  it("shows an admin every entry, in today's groups and order", () => {
    // The menu as users know it. A resource added later takes the place its declaration gives
    // (`menu`) among these, which keep their order and groups.
    const known = [
      ['/'],
      [
        'data',
        '/brands',
        '/locations',
        '/products',
        '/variations-types',
        '/options',
        '/measurement-units',
        '/categories',
        '/waste-categories',
        '/product-tags',
        '/taxes',
      ],
      ['/customers'],
      ['subscriptions', '/subscriptions', '/payments'],
      ['settings', '/users', '/authority-roles', '/exchange-rates', '/settings', '/profile'],
    ];
    const knownPaths = new Set(known.flat());
    const shape = visibleFor(userWith([], true))
      .map((entry) =>
        entry.kind === 'link'
          ? [entry.path]
          : [entry.key, ...entry.links.map((item) => item.path).filter((path) => knownPaths.has(path))],
      )
      .filter((entry) => entry.some((item) => knownPaths.has(item)));
    expect(shape).toEqual(known);
  });

  it('shows a user without permissions the dashboard, settings and profile only', () => {
    const entries = visibleFor(userWith([]));
    expect(paths(entries)).toEqual(['/', '/settings', '/profile']);
    expect(group(entries, 'data')).toBeUndefined();
    expect(group(entries, 'subscriptions')).toBeUndefined();
  });

  it('shows a group when any one of its links is permitted', () => {
    const entries = visibleFor(userWith(['viewPayments', 'viewVariations']));
    expect(group(entries, 'subscriptions')?.links.map((item) => item.path)).toEqual(['/payments']);
    expect(group(entries, 'data')?.links.map((item) => item.path)).toEqual(['/variations-types', '/options']);
  });

  it('opens the group whose link is the current path, and only that one', () => {
    const entries = visibleFor(userWith([], true), '/payments');
    expect(group(entries, 'subscriptions')?.active).toBe(true);
    expect(group(entries, 'data')?.active).toBe(false);
    expect(group(entries, 'settings')?.active).toBe(false);
  });

  it('opens the group on a sub-page of its link, but not on a look-alike path', () => {
    expect(group(visibleFor(userWith([], true), '/categories/12'), 'data')?.active).toBe(true);
    expect(group(visibleFor(userWith([], true), '/brandsx'), 'data')?.active).toBe(false);
  });

  it('checks permissions in the selected workspace only', () => {
    const user = userWith(['viewBrands']);
    const elsewhere = buildNavigation(
      navigation,
      (requirement) => requirement === null || can(user, 'w2', requirement),
      '/',
    );
    expect(paths(elsewhere)).toEqual(['/', '/settings', '/profile']);
  });

  it("lists every registered resource once, at its declaration's place", () => {
    const links = navigation.flatMap((entry): { group?: string; entry: NavLinkEntry }[] =>
      entry.kind === 'link'
        ? [{ group: undefined, entry }]
        : entry.links.map((item) => ({ group: entry.key, entry: item })),
    );
    for (const definition of resources) {
      const found = links.filter((item) => item.entry.labelKey === definition.key);
      expect(found.map((item) => item.group)).toEqual([definition.menu.group]);
    }
  });

  it('refuses two entries at one place, naming both and where to move one', () => {
    const registry = resources as readonly ResourceDefinition[];
    const [first] = registry;
    expect(() => menuOf([...registry, { ...first!, key: 'suppliers', path: 'suppliers' }])).toThrow(
      'The menu has authorityRoles and suppliers both at order 20 of the group settings: give suppliers another menu.order',
    );
  });

  it("offers a refused visitor the pages their role opens: the page's own guard, not the menu's", () => {
    const openFor = (user: CurrentUser, pathname: string) =>
      openablePages(
        navigation,
        (requirement) => requirement === null || can(user, 'w1', requirement),
        pathname,
      ).map((page) => page.path);
    // The menu always shows Dashboard; its page needs viewApplications.
    expect(openFor(userWith(['viewBrands', 'viewTaxes']), '/')).toEqual([
      '/brands',
      '/taxes',
      '/settings',
      '/profile',
    ]);
    expect(openFor(userWith(['viewBrands']), '/brands')).toEqual(['/settings', '/profile']);
    expect(openFor(userWith(['viewApplications', 'viewBrands']), '/brands/x')).toEqual([
      '/',
      '/settings',
      '/profile',
    ]);
    expect(openFor(userWith([], true), '/')).toHaveLength(paths(visibleFor(userWith([], true))).length - 1);
  });
});
