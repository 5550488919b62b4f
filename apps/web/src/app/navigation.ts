import type { PermissionRequirement } from '@dukkan/contract';
import type en from '../i18n/locales/signed-in/en.json';
import { type ScreenName, screenNamed } from './screens.ts';

export type NavGroupKey = keyof typeof en.nav.groups;
export type NavIcon = 'dashboard' | 'data' | 'customers' | 'subscriptions' | 'settings';

export interface NavLinkEntry {
  kind: 'link';
  path: string;
  /** `nav.<labelKey>` */
  labelKey: string;
  /** null: shown to every signed-in user. */
  requirement: PermissionRequirement | null;
  /** Who may open the page itself (its route's guard); the menu may show its link to more. */
  pageRequirement: PermissionRequirement | null;
  icon?: NavIcon;
}

export interface NavGroupEntry {
  kind: 'group';
  key: NavGroupKey;
  icon: NavIcon;
  links: NavLinkEntry[];
}

export type NavEntry = NavLinkEntry | NavGroupEntry;

function link(name: ScreenName, overrides: Partial<NavLinkEntry> = {}): NavLinkEntry {
  const screen = screenNamed(name);
  return {
    kind: 'link',
    // A screen with sub-pages (`/categories/*`) is linked at its top.
    path: screen.path.replace(/\/\*$/, ''),
    labelKey: screen.titleKey,
    requirement: screen.requirement,
    pageRequirement: screen.requirement,
    ...overrides,
  };
}

/**
 * The menu of spec §2 "Navigation entries": each link carries the permission that shows it. A
 * registered resource's screen has one line here (a test fails while one has none).
 */
export const navigation: readonly NavEntry[] = [
  // "Dashboard: always shown" in the menu; the page itself checks viewApplications.
  link('dashboard', { requirement: null, icon: 'dashboard' }),
  {
    kind: 'group',
    key: 'data',
    icon: 'data',
    links: [
      link('brands'),
      link('locations'),
      link('products'),
      link('variationTypes'),
      link('variationValues'),
      link('measurementUnits'),
      link('categories'),
      link('wasteCategories'),
      link('productTags'),
      link('taxes'),
    ],
  },
  link('customers', { icon: 'customers' }),
  {
    kind: 'group',
    key: 'subscriptions',
    icon: 'subscriptions',
    links: [link('subscriptions'), link('payments')],
  },
  {
    kind: 'group',
    key: 'settings',
    icon: 'settings',
    links: [
      link('workspaceUsers'),
      link('authorityRoles'),
      link('exchangeRates'),
      link('settings'),
      link('profile'),
    ],
  },
];

export type VisibleNavEntry = NavLinkEntry | (NavGroupEntry & { active: boolean });

/** Is the current path this link's page, or one of its sub-pages (`/categories/12`)? */
export function isLinkActive(linkPath: string, pathname: string): boolean {
  if (linkPath === '/') return pathname === '/';
  return pathname === linkPath || pathname.startsWith(`${linkPath}/`);
}

/**
 * The menu a user sees: links they may open, groups with at least one such link, and each
 * group marked `active` (opened) when the current path is one of its links (spec §2).
 */
export function buildNavigation(
  entries: readonly NavEntry[],
  isAllowed: (requirement: PermissionRequirement | null) => boolean,
  pathname: string,
): VisibleNavEntry[] {
  const visible: VisibleNavEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'link') {
      if (isAllowed(entry.requirement)) visible.push(entry);
      continue;
    }
    const links = entry.links.filter((item) => isAllowed(item.requirement));
    if (links.length === 0) continue;
    visible.push({ ...entry, links, active: links.some((item) => isLinkActive(item.path, pathname)) });
  }
  return visible;
}

/**
 * The menu's links to pages the user may open (each page's own guard, so the Dashboard only with
 * viewApplications), in menu order, without the page at `pathname`: where a refused page sends
 * its visitor instead of a dead end.
 */
export function openablePages(
  entries: readonly NavEntry[],
  isAllowed: (requirement: PermissionRequirement | null) => boolean,
  pathname: string,
): NavLinkEntry[] {
  return entries
    .flatMap((entry) => (entry.kind === 'link' ? [entry] : entry.links))
    .filter((item) => isAllowed(item.pageRequirement) && !isLinkActive(item.path, pathname));
}
