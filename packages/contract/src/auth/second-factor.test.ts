import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicationSignInNeedsSecondFactor, authenticationLevels } from './second-factor.ts';

describe('applicationSignInNeedsSecondFactor', () => {
  const multiFactor = authenticationLevels.multiFactor;

  it('asks a password-only session when the workspace requires it or the client asks for it', () => {
    const needs = (workspaceRequires: boolean, acrValues: string | null) =>
      applicationSignInNeedsSecondFactor({ factors: ['pwd'], workspaceRequires, acrValues });
    expect(needs(false, null)).toBe(false);
    expect(needs(true, null)).toBe(true);
    expect(needs(false, multiFactor)).toBe(true);
    expect(needs(false, `${authenticationLevels.password} ${multiFactor}`)).toBe(true);
    expect(needs(false, authenticationLevels.password)).toBe(false);
  });

  it('never asks a session that used a second factor', () => {
    fc.assert(
      fc.property(
        fc.subarray(['otp', 'hwk', 'swk'], { minLength: 1 }),
        fc.boolean(),
        fc.option(fc.constantFrom(multiFactor, authenticationLevels.password, '')),
        (others, workspaceRequires, acrValues) => {
          expect(
            applicationSignInNeedsSecondFactor({ factors: ['pwd', ...others], workspaceRequires, acrValues }),
          ).toBe(false);
        },
      ),
    );
  });
});
