import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { type PermissionRequirement, satisfies, type WorkspaceGrant } from '../permissions/can.ts';
import type { PermissionTag } from '../permissions/tags.ts';

/**
 * The dashboard's "Get started" list: the first things a new workspace does, in order. Each is
 * computed from the workspace's data on the server and shown only to a member who may do it.
 */
export const getStartedStepKeys = ['brand', 'location', 'product', 'invite', 'application'] as const;
export type GetStartedStepKey = (typeof getStartedStepKeys)[number];

/** The tag that lets a member take each step (the one its page's "add" needs). */
export const getStartedStepTags = {
  brand: 'addBrands',
  location: 'addLocations',
  product: 'addProducts',
  invite: 'addUsers',
  // Starting a trial or asking for a plan: the dashboard's subscription events.
  application: 'addSubscriptions',
} as const satisfies Record<GetStartedStepKey, PermissionTag>;

/** Who may see the list (and hide it): a member who may take at least one of its steps. */
export const getStartedRequirement: PermissionRequirement = { or: Object.values(getStartedStepTags) };

/** What the workspace's data says, read by the server in one query. */
export interface GetStartedFacts {
  /** The workspace has a brand (enabled or not). */
  brand: boolean;
  /** …an enabled one, which a new location may belong to. */
  activeBrand: boolean;
  location: boolean;
  product: boolean;
  /** A member besides the first: someone was invited (an invitation counts once it is sent). */
  secondMember: boolean;
  /**
   * A subscription to an application, in any state: a trial started, a plan asked for, approved
   * or since ended. (A member's sign-in to an application through the portal needs an installed
   * one, so it always comes with such a subscription.)
   */
  subscription: boolean;
}

/** One step as a member sees it. */
export interface GetStartedStep {
  key: GetStartedStepKey;
  done: boolean;
  /** A step not done that cannot be taken yet, and the step it waits for: a location its brand. */
  waitsFor: GetStartedStepKey | null;
}

/** `GET /api/workspaces/get-started?workspaceId=…` (and the dismissal's answers): `{ data }`. */
export interface GetStarted {
  /** When a member hid the list for the whole workspace; null while it shows. */
  dismissedAt: string | null;
  /** The steps this member may take, in order (none: the list is not shown to them). */
  steps: GetStartedStep[];
}

export const getStartedSchema = lazySchema(() =>
  z.strictObject({
    dismissedAt: z.string().nullable(),
    steps: z.array(
      z.strictObject({
        key: z.enum(getStartedStepKeys),
        done: z.boolean(),
        waitsFor: z.enum(getStartedStepKeys).nullable(),
      }),
    ),
  }),
);

const doneBy: Record<GetStartedStepKey, (facts: GetStartedFacts) => boolean> = {
  brand: (facts) => facts.brand,
  location: (facts) => facts.location,
  product: (facts) => facts.product,
  invite: (facts) => facts.secondMember,
  application: (facts) => facts.subscription,
};

/** The steps a member with `grant` may take, each ticked from the workspace's facts. */
export function getStartedSteps(facts: GetStartedFacts, grant: WorkspaceGrant): GetStartedStep[] {
  return getStartedStepKeys
    .filter((key) => satisfies(grant, { and: [getStartedStepTags[key]] }))
    .map((key) => {
      const done = doneBy[key](facts);
      const waitsFor = key === 'location' && !done && !facts.activeBrand ? 'brand' : null;
      return { key, done, waitsFor };
    });
}

/** Whether the dashboard shows the list: not hidden, and a step of the member's still to do. */
export function isGetStartedShown(state: GetStarted): boolean {
  return state.dismissedAt === null && state.steps.some((step) => !step.done);
}

/** The API path of the list, and of its dismissal (`PUT` hides it, `DELETE` shows it again). */
export const getStartedPath = 'workspaces/get-started';
export const getStartedDismissalPath = `${getStartedPath}/dismissal`;
