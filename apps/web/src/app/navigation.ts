import {
  type MenuGroup,
  type MenuPlacement,
  type PermissionRequirement,
  type ResourceDefinition,
  resources,
} from '@dukkan/contract';
import { type OtherScreenName, resourceScreen, type Screen, screenNamed } from './screens.ts';

export type NavGroupKey = MenuGroup;
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

type NavEntry = NavLinkEntry | NavGroupEntry;

/** The menu's groups (`nav.groups.<key>`): each one's icon and place among the top-level entries. */
const groupPlaces: Record<MenuGroup, { icon: NavIcon; order: number }> = {
  data: { icon: 'data', order: 20 },
  subscriptions: { icon: 'subscriptions', order: 40 },
  settings: { icon: 'settings', order: 50 },
};

/**
 * The menu's links that are not a registered resource's screen, with their places; a resource's
 * place is its declaration's `menu`.
 */
const otherLinks: readonly {
  screen: OtherScreenName;
  menu: MenuPlacement;
  overrides?: Partial<NavLinkEntry>;
}[] = [
  // "Dashboard: always shown" in the menu; the page itself checks viewApplications.
  { screen: 'dashboard', menu: { order: 10 }, overrides: { requirement: null } },
  { screen: 'settings', menu: { group: 'settings', order: 90 } },
  { screen: 'profile', menu: { group: 'settings', order: 100 } },
];

/** The icons of top-level links (a link in a group has none). */
const linkIcons: Partial<Record<string, NavIcon>> = { dashboard: 'dashboard', customers: 'customers' };

function link(screen: Screen, name: string, overrides: Partial<NavLinkEntry> = {}): NavLinkEntry {
  const icon = linkIcons[name];
  return {
    kind: 'link',
    // A screen with sub-pages (`/categories/*`) is linked at its top.
    path: screen.path.replace(/\/\*$/, ''),
    labelKey: screen.titleKey,
    requirement: screen.requirement,
    pageRequirement: screen.requirement,
    ...(icon ? { icon } : {}),
    ...overrides,
  };
}

/**
 * The menu of spec §2 "Navigation entries" over a registry: each resource's screen at the place
 * its declaration gives (`menu: { group, order }`), beside the other links and the groups placed
 * here; each link carries the permission that shows it. Two entries at one place throw, naming
 * both.
 */
export function menuOf(registry: readonly ResourceDefinition[]): NavEntry[] {
  type Placed = { order: number; name: string; entry: NavEntry };
  const topLevel: Placed[] = [];
  const grouped = new Map<MenuGroup, Placed[]>();
  const place = (menu: MenuPlacement, name: string, entry: NavEntry) => {
    const neighbours = menu.group ? (grouped.get(menu.group) ?? []) : topLevel;
    if (menu.group) grouped.set(menu.group, neighbours);
    const taken = neighbours.find((other) => other.order === menu.order);
    if (taken) {
      throw new Error(
        `The menu has ${taken.name} and ${name} both at order ${menu.order} ${menu.group ? `of the group ${menu.group}` : 'of the top level'}: give ${name} another menu.order (a resource's is in its declaration, packages/contract/src/resources/)`,
      );
    }
    neighbours.push({ order: menu.order, name, entry });
  };
  for (const other of otherLinks)
    place(other.menu, other.screen, link(screenNamed(other.screen), other.screen, other.overrides));
  for (const definition of registry)
    place(definition.menu, definition.key, link(resourceScreen(definition), definition.key));
  for (const [key, { icon, order }] of Object.entries(groupPlaces) as [
    MenuGroup,
    (typeof groupPlaces)[MenuGroup],
  ][]) {
    const links = grouped.get(key);
    if (!links) continue;
    const entry: NavGroupEntry = {
      kind: 'group',
      key,
      icon,
      links: links.sort((a, b) => a.order - b.order).map((placed) => placed.entry as NavLinkEntry),
    };
    place({ order }, `the group ${key}`, entry);
  }
  return topLevel.sort((a, b) => a.order - b.order).map((placed) => placed.entry);
}

/** The signed-in app's menu: the registered resources' screens and the other links. */
export const navigation: readonly NavEntry[] = menuOf(resources);

export type VisibleNavEntry = NavLinkEntry | (NavGroupEntry & { active: boolean });

/** Is the current path this link's page, or one of its sub-pages (`/categories/12`)? */
function isLinkActive(linkPath: string, pathname: string): boolean {
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
