import { type CurrentUser, can } from '@dukkan/contract';
import { matchRoutes } from 'react-router';
import type { SignInAccess } from '../lib/login-redirect.ts';
import { chooseWorkspaceId, listUserWorkspaces, readStoredWorkspaceId } from '../lib/workspace-selection.ts';
import { navigation } from './navigation.ts';
import { screens } from './screens.ts';

const screenRoutes = Object.values(screens).map((screen) => ({ path: screen.path, screen }));

/**
 * What the member who just signed in may open, in the workspace the shell will select for them
 * (the stored one if still theirs, else their first): a screen by its route's guard — an address
 * that is no screen (the portal, a page not found) refuses no one — and the menu's pages in order.
 * Loaded by the login page once signed in, with the signed-in area it goes to.
 */
export function signInAccess(user: CurrentUser): SignInAccess {
  const workspaceId = chooseWorkspaceId(listUserWorkspaces(user), readStoredWorkspaceId());
  const mayOpen = (pathname: string) => {
    const screen = matchRoutes(screenRoutes, pathname)?.[0]?.route.screen;
    return !screen?.requirement || can(user, workspaceId, screen.requirement);
  };
  const menu = navigation
    .flatMap((entry) => (entry.kind === 'link' ? [entry] : entry.links))
    .map((link) => link.path);
  return { mayOpen, menu };
}
