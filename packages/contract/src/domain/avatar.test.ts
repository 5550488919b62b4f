import { describe, expect, it } from 'vitest';
import { nameInitials, userInitial, workspaceInitials } from './avatar.ts';

describe('avatar fallbacks (spec §9, §2)', () => {
  it('workspace: first two letters, upper case', () => {
    expect(workspaceInitials('demo store')).toBe('DE');
    expect(workspaceInitials('متجر')).toBe('مت');
  });
  it('user: first letter of the name, or USER', () => {
    expect(userInitial('sara')).toBe('S');
    expect(userInitial('')).toBe('USER');
    expect(userInitial(null)).toBe('USER');
  });
  it('portal: initials of the first two words', () => {
    expect(nameInitials('sara ali hassan')).toBe('SA');
    expect(nameInitials('  ')).toBe('USER');
  });
});
