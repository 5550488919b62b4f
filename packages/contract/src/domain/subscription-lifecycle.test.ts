import { describe, expect, it } from 'vitest';
import {
  allowedWorkspaceEvents,
  applicationCardState,
  type SubscriptionEvent,
  type SubscriptionSituation,
  situationOf,
  subscriptionEvents,
  subscriptionStatuses,
  transition,
} from './subscription-lifecycle.ts';

/** A situation written short: the status, then `+cancelling` / `+grace`. */
type Named =
  | 'none'
  | 'freeTrial'
  | 'expiredFreeTrial'
  | 'pending'
  | 'approved'
  | 'approved+cancelling'
  | 'approved+grace'
  | 'rejected'
  | 'expiredSubscription';

const situation = (name: Named): SubscriptionSituation => {
  const [status, flag] = name.split('+') as [string, string | undefined];
  return situationOf(status === 'none' ? null : (status as SubscriptionSituation['status']), {
    cancelling: flag === 'cancelling',
    inGrace: flag === 'grace',
  });
};

/**
 * Every state × event pair, written out: the situation it leads to, or the refusal. A change to
 * the table that is not also made here turns a row red.
 */
const expected: Record<Named, Record<SubscriptionEvent, Named | `refused:${string}`>> = {
  none: {
    startTrial: 'freeTrial',
    trialEnds: 'refused:notInTrial',
    request: 'pending',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'refused:notSubscribed',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:notExpired',
    changePlan: 'refused:notSubscribed',
    cancel: 'refused:notSubscribed',
    activate: 'refused:notPending',
  },
  freeTrial: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'expiredFreeTrial',
    request: 'pending',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'refused:notApproved',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:notExpired',
    changePlan: 'refused:notApproved',
    cancel: 'expiredFreeTrial',
    activate: 'refused:notPending',
  },
  expiredFreeTrial: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'pending',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'refused:notSubscribed',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:notExpired',
    changePlan: 'refused:notSubscribed',
    cancel: 'refused:notSubscribed',
    activate: 'refused:notPending',
  },
  pending: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'refused:alreadyRequested',
    approve: 'approved',
    reject: 'rejected',
    periodEnds: 'refused:alreadyRequested',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:notExpired',
    changePlan: 'pending',
    cancel: 'refused:alreadyRequested',
    activate: 'approved',
  },
  approved: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'refused:alreadySubscribed',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'approved+grace',
    graceEnds: 'refused:notInGrace',
    renew: 'approved',
    changePlan: 'approved',
    cancel: 'approved+cancelling',
    activate: 'refused:notPending',
  },
  'approved+cancelling': {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'refused:alreadySubscribed',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'expiredSubscription',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:alreadyCancelling',
    changePlan: 'refused:alreadyCancelling',
    cancel: 'refused:alreadyCancelling',
    activate: 'refused:notPending',
  },
  'approved+grace': {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'refused:alreadySubscribed',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'approved+grace',
    graceEnds: 'expiredSubscription',
    renew: 'approved',
    changePlan: 'approved+grace',
    cancel: 'expiredSubscription',
    activate: 'refused:notPending',
  },
  rejected: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'pending',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'refused:notSubscribed',
    graceEnds: 'refused:notInGrace',
    renew: 'refused:notExpired',
    changePlan: 'refused:notSubscribed',
    cancel: 'refused:notSubscribed',
    activate: 'refused:notPending',
  },
  expiredSubscription: {
    startTrial: 'refused:trialAlreadyUsed',
    trialEnds: 'refused:notInTrial',
    request: 'pending',
    approve: 'refused:notPending',
    reject: 'refused:notPending',
    periodEnds: 'refused:notSubscribed',
    graceEnds: 'refused:notInGrace',
    renew: 'pending',
    changePlan: 'refused:notSubscribed',
    cancel: 'refused:notSubscribed',
    activate: 'refused:notPending',
  },
};

const nameOf = (to: SubscriptionSituation): Named => {
  const status = to.status ?? 'none';
  if (to.cancelling) return `${status}+cancelling` as Named;
  if (to.inGrace) return `${status}+grace` as Named;
  return status as Named;
};

describe('the subscription lifecycle', () => {
  const pairs = (Object.keys(expected) as Named[]).flatMap((from) =>
    subscriptionEvents.map((event) => [from, event, expected[from][event]] as const),
  );

  it('covers every status and event', () => {
    const statuses = new Set(Object.keys(expected).map((name) => name.split('+')[0]));
    expect([...statuses].sort()).toEqual(['none', ...subscriptionStatuses].sort());
    expect(pairs).toHaveLength(9 * subscriptionEvents.length);
  });

  it.each(pairs)('%s + %s → %s', (from, event, outcome) => {
    const result = transition(situation(from), event);
    if (outcome.startsWith('refused:')) {
      expect(result).toEqual({ allowed: false, reason: outcome.slice('refused:'.length) });
    } else {
      expect(result.allowed).toBe(true);
      if (result.allowed) expect(nameOf(result.to)).toBe(outcome);
    }
  });

  it('keeps a subscription in grace approved: the spec has no seventh status', () => {
    const grace = transition(situation('approved'), 'periodEnds');
    expect(grace).toEqual({ allowed: true, to: { status: 'approved', cancelling: false, inGrace: true } });
  });

  it('ends a cancelled subscription as expired at the period end, not at the cancellation', () => {
    const cancelled = transition(situation('approved'), 'cancel');
    expect(cancelled.allowed && cancelled.to.status).toBe('approved');
    if (!cancelled.allowed) return;
    const ended = transition(cancelled.to, 'periodEnds');
    expect(ended.allowed && ended.to.status).toBe('expiredSubscription');
  });

  it('offers on each card only the events the table allows', () => {
    expect(allowedWorkspaceEvents(situation('none'))).toEqual(['startTrial', 'request']);
    expect(allowedWorkspaceEvents(situation('freeTrial'))).toEqual(['request', 'cancel']);
    expect(allowedWorkspaceEvents(situation('pending'))).toEqual(['changePlan']);
    // Renewing an approved subscription is its payment's, not the dashboard's.
    expect(allowedWorkspaceEvents(situation('approved'))).toEqual(['changePlan', 'cancel']);
    expect(allowedWorkspaceEvents(situation('approved+grace'))).toEqual(['changePlan', 'cancel']);
    expect(allowedWorkspaceEvents(situation('approved+cancelling'))).toEqual([]);
    expect(allowedWorkspaceEvents(situation('expiredSubscription'))).toEqual(['request', 'renew']);
  });

  it('names the card states of the spec', () => {
    expect(applicationCardState(null)).toBe('notSubscribed');
    expect(applicationCardState('pending')).toBe('waitingForActivation');
    expect(applicationCardState('approved')).toBe('subscribed');
    expect(applicationCardState('expiredFreeTrial')).toBe('expiredFreeTrial');
    expect(applicationCardState('expiredSubscription')).toBe('expiredSubscription');
    expect(applicationCardState('rejected')).toBe('rejected');
    expect(applicationCardState('freeTrial')).toBe('freeTrial');
  });
});
