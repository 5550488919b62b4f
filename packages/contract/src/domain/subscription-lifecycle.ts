/*
 * The life of a workspace's subscription to one application (spec §4), as one table of
 * statuses × events. The server applies it to the stored row; the web reads it to offer only the
 * actions a card's state allows. Anything the table does not list is refused (409).
 */

/** The spec's six statuses, exactly. */
export const subscriptionStatuses = [
  'pending',
  'approved',
  'rejected',
  'freeTrial',
  'expiredFreeTrial',
  'expiredSubscription',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/**
 * What can happen to a subscription, and who makes it happen: the workspace (`startTrial`,
 * `request`, `renew`, `changePlan`, `cancel`), the operator (`approve`, `reject`, and `renew`
 * when a payment is recorded), the clock (`trialEnds`, `periodEnds`, `graceEnds`) or a payment
 * provider (`activate`: a requested subscription's first invoice paid through a hosted checkout,
 * which starts it without the operator's approval; `renew` when it pays the next period).
 */
export const subscriptionEvents = [
  'startTrial',
  'trialEnds',
  'request',
  'approve',
  'reject',
  'periodEnds',
  'graceEnds',
  'renew',
  'changePlan',
  'cancel',
  'activate',
] as const;
export type SubscriptionEvent = (typeof subscriptionEvents)[number];

/** The events a workspace member (with addSubscriptions) may cause from the dashboard. */
export const workspaceSubscriptionEvents = [
  'startTrial',
  'request',
  'renew',
  'changePlan',
  'cancel',
] as const satisfies readonly SubscriptionEvent[];
export type WorkspaceSubscriptionEvent = (typeof workspaceSubscriptionEvents)[number];

/** A workspace that never subscribed to the application has no subscription: `null`. */
export type SubscriptionState = SubscriptionStatus | null;

/**
 * The state after an allowed event. `cancelling` is an approved subscription's promise to end at
 * its period's end; `periodEnds` of a cancelling subscription ends it, otherwise the grace period
 * starts (still approved, the next invoice issued) until a payment renews it or `graceEnds`.
 */
export interface SubscriptionSituation {
  status: SubscriptionState;
  /** Approved and cancelled: it ends at the period's end instead of renewing. */
  cancelling: boolean;
  /** Approved, past the period's end, waiting for the next period's payment. */
  inGrace: boolean;
}

export type TransitionResult =
  | { allowed: true; to: SubscriptionSituation }
  | { allowed: false; reason: SubscriptionRefusal };

/** Why an event is refused in a state: each has its translated message (`subscriptions.refusals.*`). */
export const subscriptionRefusals = [
  'notSubscribed',
  'trialAlreadyUsed',
  'alreadyRequested',
  'alreadySubscribed',
  'notPending',
  'notApproved',
  'notInTrial',
  'notExpired',
  'alreadyCancelling',
  'notInGrace',
] as const;
export type SubscriptionRefusal = (typeof subscriptionRefusals)[number];

const settled = (status: SubscriptionState): SubscriptionSituation => ({
  status,
  cancelling: false,
  inGrace: false,
});

type Rule = (from: SubscriptionSituation) => SubscriptionSituation | SubscriptionRefusal;

const requestable: Rule = () => settled('pending');

/**
 * The table: for each state, the events it allows and where they lead; a missing event is refused
 * with the state's default reason. `null` is "not subscribed".
 */
const table: Record<
  'none' | SubscriptionStatus,
  { refused: SubscriptionRefusal; allows: Partial<Record<SubscriptionEvent, Rule>> }
> = {
  none: {
    refused: 'notSubscribed',
    allows: { startTrial: () => settled('freeTrial'), request: requestable },
  },
  freeTrial: {
    refused: 'notApproved',
    allows: {
      trialEnds: () => settled('expiredFreeTrial'),
      request: requestable,
      // Ending a trial early: the application closes now, the trial counts as used.
      cancel: () => settled('expiredFreeTrial'),
    },
  },
  expiredFreeTrial: { refused: 'notSubscribed', allows: { request: requestable } },
  pending: {
    refused: 'alreadyRequested',
    allows: {
      approve: () => settled('approved'),
      // Its first invoice paid through the hosted checkout: approved without the operator.
      activate: () => settled('approved'),
      reject: () => settled('rejected'),
      // Another plan for the same request; it still waits for the operator.
      changePlan: () => settled('pending'),
    },
  },
  approved: {
    refused: 'alreadySubscribed',
    allows: {
      periodEnds: (from) =>
        from.cancelling
          ? settled('expiredSubscription')
          : { status: 'approved', cancelling: false, inGrace: true },
      graceEnds: (from) => (from.inGrace ? settled('expiredSubscription') : 'notInGrace'),
      // The next period paid: a new period, out of grace.
      renew: (from) => (from.cancelling ? 'alreadyCancelling' : settled('approved')),
      // The new plan applies from the next period; a cancelling subscription has no next period.
      changePlan: (from) => (from.cancelling ? 'alreadyCancelling' : { ...from }),
      cancel: (from) =>
        from.cancelling
          ? 'alreadyCancelling'
          : // In grace nothing is owed yet for a period that will not come: it ends now.
            from.inGrace
            ? settled('expiredSubscription')
            : { status: 'approved', cancelling: true, inGrace: false },
    },
  },
  rejected: { refused: 'notSubscribed', allows: { request: requestable } },
  expiredSubscription: {
    refused: 'notSubscribed',
    // Renewing a lapsed subscription is a new request for the operator.
    allows: { request: requestable, renew: requestable },
  },
};

/** Which refusal a few state × event pairs get, clearer than the state's default. */
function refusalFor(from: SubscriptionSituation, event: SubscriptionEvent): SubscriptionRefusal {
  const status = from.status;
  if (event === 'startTrial') return status === null ? 'notSubscribed' : 'trialAlreadyUsed';
  if (event === 'request') return status === 'pending' ? 'alreadyRequested' : 'alreadySubscribed';
  if (event === 'approve' || event === 'reject' || event === 'activate') return 'notPending';
  if (event === 'trialEnds') return 'notInTrial';
  if (event === 'graceEnds') return 'notInGrace';
  if (event === 'renew' && status !== 'approved') return 'notExpired';
  return table[status ?? 'none'].refused;
}

/** Applies one event to a subscription's situation: where it leads, or why it is refused. */
export function transition(from: SubscriptionSituation, event: SubscriptionEvent): TransitionResult {
  const rule = table[from.status ?? 'none'].allows[event];
  if (!rule) return { allowed: false, reason: refusalFor(from, event) };
  const to = rule(from);
  return typeof to === 'string' ? { allowed: false, reason: to } : { allowed: true, to };
}

/** The situation of a stored status with no flags set. */
export const situationOf = (
  status: SubscriptionState,
  flags: Partial<Pick<SubscriptionSituation, 'cancelling' | 'inGrace'>> = {},
): SubscriptionSituation => ({
  status,
  cancelling: flags.cancelling ?? false,
  inGrace: flags.inGrace ?? false,
});

/** The statuses in which the workspace may use the application ("installed"). */
export const activeSubscriptionStatuses: readonly SubscriptionStatus[] = ['approved', 'freeTrial'];

/** The dashboard's card states: the spec's four verbatim plus the three the issue adds. */
export const applicationCardStates = [
  'notSubscribed',
  'freeTrial',
  'waitingForActivation',
  'subscribed',
  'expiredFreeTrial',
  'expiredSubscription',
  'rejected',
] as const;
export type ApplicationCardState = (typeof applicationCardStates)[number];

const cardStateOf: Record<'none' | SubscriptionStatus, ApplicationCardState> = {
  none: 'notSubscribed',
  freeTrial: 'freeTrial',
  pending: 'waitingForActivation',
  approved: 'subscribed',
  expiredFreeTrial: 'expiredFreeTrial',
  expiredSubscription: 'expiredSubscription',
  rejected: 'rejected',
};

/** A card's state for a workspace's subscription status (`null`: never subscribed). */
export const applicationCardState = (status: SubscriptionState): ApplicationCardState =>
  cardStateOf[status ?? 'none'];

/**
 * An event as the workspace causes it: the table, except that an approved subscription is renewed
 * by its next invoice's payment (the operator's record, or a payment provider), never from the
 * dashboard: without it the workspace could start a period it has not paid for.
 */
export function workspaceTransition(from: SubscriptionSituation, event: SubscriptionEvent): TransitionResult {
  if (event === 'renew' && from.status === 'approved') return { allowed: false, reason: 'notExpired' };
  return transition(from, event);
}

/** The workspace's events a situation allows: the dashboard offers exactly these. */
export function allowedWorkspaceEvents(from: SubscriptionSituation): WorkspaceSubscriptionEvent[] {
  return workspaceSubscriptionEvents.filter((event) => workspaceTransition(from, event).allowed);
}
