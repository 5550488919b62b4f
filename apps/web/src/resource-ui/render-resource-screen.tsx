import type { CurrentUser, ResourceDefinition } from '@dukkan/contract';
import { vi } from 'vitest';
import { type MockRoute, mockFetch, renderSignedIn } from '../test/render.tsx';
import { ResourceScreen } from './resource-screen.tsx';

/**
 * A test's generic screen of `definition`, titled `title`, at its own address for a signed-in
 * `user`, the server answered by `routes`: the fetch mock, to read the calls.
 */
export function renderResourceScreen(
  definition: ResourceDefinition,
  title: string,
  user: CurrentUser,
  routes: MockRoute[],
) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ResourceScreen definition={definition} title={title} />, {
    user,
    path: `/${definition.path}`,
  });
  return mock;
}
