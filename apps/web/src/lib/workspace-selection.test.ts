import type { CurrentUser } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import {
  chooseWorkspaceId,
  listUserWorkspaces,
  readStoredWorkspaceId,
  storeWorkspaceId,
} from './workspace-selection.ts';

const store = (id: string, name: string) => ({
  id,
  name,
  logo: null,
  baseCurrency: 'EGP',
  timeZone: 'Africa/Cairo',
  requireSecondFactor: false,
});
const role = { id: 'r', code: 'c', title: 't', permissions: [] };
const user: Pick<CurrentUser, 'adminWorkspaces' | 'workspaces'> = {
  adminWorkspaces: [store('a', 'Alpha')],
  workspaces: [
    { workspaceId: 'b', workspace: store('b', 'Beta'), role },
    { workspaceId: 'a', workspace: store('a', 'Alpha'), role },
  ],
};

describe('workspace selection (spec §4)', () => {
  it('lists admin workspaces then role workspaces, each once', () => {
    expect(listUserWorkspaces(user).map((workspace) => workspace.id)).toEqual(['a', 'b']);
  });

  it('keeps the stored id when it is one of the user workspaces', () => {
    expect(chooseWorkspaceId(listUserWorkspaces(user), 'b')).toBe('b');
  });

  it('falls back to the first workspace when the stored id is unknown or missing', () => {
    const workspaces = listUserWorkspaces(user);
    expect(chooseWorkspaceId(workspaces, 'gone')).toBe('a');
    expect(chooseWorkspaceId(workspaces, null)).toBe('a');
  });

  it('is null for a user without workspaces', () => {
    expect(chooseWorkspaceId([], 'a')).toBeNull();
  });

  it('stores and reads the choice under selectedWorkspace', () => {
    const memory = new Map<string, string>();
    const storage = {
      getItem: (key: string) => memory.get(key) ?? null,
      setItem: (key: string, value: string) => void memory.set(key, value),
    };
    storeWorkspaceId('b', storage);
    expect(memory.get('selectedWorkspace')).toBe('b');
    expect(readStoredWorkspaceId(storage)).toBe('b');
  });
});
