import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { satisfies } from '../permissions/can.ts';
import { allPermissionTags } from '../permissions/tags.ts';
import {
  type GetStartedFacts,
  getStartedRequirement,
  getStartedSchema,
  getStartedStepKeys,
  getStartedSteps,
  getStartedStepTags,
  isGetStartedShown,
} from './get-started.ts';

const nothing: GetStartedFacts = {
  brand: false,
  activeBrand: false,
  location: false,
  product: false,
  secondMember: false,
  subscription: false,
};
const admin = { isAdmin: true, tags: new Set<string>() };

const facts = fc.record({
  brand: fc.boolean(),
  activeBrand: fc.boolean(),
  location: fc.boolean(),
  product: fc.boolean(),
  secondMember: fc.boolean(),
  subscription: fc.boolean(),
}) as fc.Arbitrary<GetStartedFacts>;
const grants = fc.oneof(
  fc.constant(admin),
  fc.subarray([...allPermissionTags]).map((tags) => ({ isAdmin: false, tags: new Set<string>(tags) })),
);

describe('getStartedSteps', () => {
  it('a new workspace: an admin gets all five steps in order, none done, the location waiting for a brand', () => {
    expect(getStartedSteps(nothing, admin)).toEqual([
      { key: 'brand', done: false, waitsFor: null },
      { key: 'location', done: false, waitsFor: 'brand' },
      { key: 'product', done: false, waitsFor: null },
      { key: 'invite', done: false, waitsFor: null },
      { key: 'application', done: false, waitsFor: null },
    ]);
  });

  it('an enabled brand lets the location be added; a disabled one does not', () => {
    const location = (facts: Partial<GetStartedFacts>) =>
      getStartedSteps({ ...nothing, ...facts }, admin).find((step) => step.key === 'location');
    expect(location({ brand: true, activeBrand: true })).toEqual({
      key: 'location',
      done: false,
      waitsFor: null,
    });
    expect(location({ brand: true })).toEqual({ key: 'location', done: false, waitsFor: 'brand' });
    // A location there already is done, whatever its brand became since.
    expect(location({ location: true })).toEqual({ key: 'location', done: true, waitsFor: null });
  });

  it('a member sees exactly the steps whose tag they hold, each ticked by its own fact', () => {
    fc.assert(
      fc.property(facts, grants, (workspace, grant) => {
        const steps = getStartedSteps(workspace, grant);
        expect(steps.map((step) => step.key)).toEqual(
          getStartedStepKeys.filter((key) => grant.isAdmin || grant.tags.has(getStartedStepTags[key])),
        );
        const factOf = {
          brand: workspace.brand,
          location: workspace.location,
          product: workspace.product,
          invite: workspace.secondMember,
          application: workspace.subscription,
        };
        for (const step of steps) {
          expect(step.done, step.key).toBe(factOf[step.key]);
          expect(step.waitsFor, step.key).toBe(
            step.key === 'location' && !step.done && !workspace.activeBrand ? 'brand' : null,
          );
        }
        // Whoever has a step may see (and hide) the list; whoever has none may not.
        expect(satisfies(grant, getStartedRequirement)).toBe(steps.length > 0);
        expect(getStartedSchema.parse({ dismissedAt: null, steps })).toEqual({ dismissedAt: null, steps });
      }),
    );
  });
});

describe('isGetStartedShown', () => {
  const step = (done: boolean) => ({ key: 'brand' as const, done, waitsFor: null });
  it('shows while a step is left and nobody hid it', () => {
    expect(isGetStartedShown({ dismissedAt: null, steps: [step(true), step(false)] })).toBe(true);
  });
  it('is gone once every step is done, once hidden, and when the member has no step', () => {
    expect(isGetStartedShown({ dismissedAt: null, steps: [step(true), step(true)] })).toBe(false);
    expect(isGetStartedShown({ dismissedAt: '2027-01-01T00:00:00.000Z', steps: [step(false)] })).toBe(false);
    expect(isGetStartedShown({ dismissedAt: null, steps: [] })).toBe(false);
  });
});
