import type { SubscriptionEvent } from '@dukkan/contract';
import {
  and,
  asc,
  count,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  type SQL,
} from 'drizzle-orm';
import { asAuditActor } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { applications, subscriptions } from '../../db/schema/index.ts';
import { workspaceTimeZone } from '../../db/workspace-time-zone.ts';
import type { Mailer, OutgoingMail } from '../../platform/mail/mailer.ts';
import { activeLocationCount, invoiceDraft } from './invoices.ts';
import { applySubscriptionEvent, SubscriptionEventRefused } from './subscription-lifecycle.ts';
import {
  endingSoonMails,
  type MailLog,
  mailsOfEvent,
  sendCommittedMails,
  stderrMailLog,
} from './subscription-mails.ts';
import { periodEnd, type SubscriptionRow } from './subscription-periods.ts';

/*
 * The clock applies the lifecycle's time-driven events: a free trial's end, a period's end (the
 * next invoice and the grace, or the end of a cancelled subscription), a grace's end, and the
 * "ends in 3 days" warning. Each subscription is handled in a transaction of its own, picked with
 * FOR UPDATE SKIP LOCKED and checked again once locked, so several server instances running the
 * clock at once apply each event once and send each mail once.
 */

export interface SubscriptionClockServices {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  /** Days a subscription whose period ended unpaid stays approved (SUBSCRIPTION_GRACE_DAYS). */
  graceDays: number;
  log?: MailLog;
}

/** How long before the end of a trial or a period its admins are warned (72 hours, in every zone). */
const warningDays = 3;
const warningMs = warningDays * 24 * 60 * 60 * 1000;

type ClockEvent = Extract<SubscriptionEvent, 'trialEnds' | 'periodEnds' | 'graceEnds'>;

interface SubscriptionClockRun {
  /** The events applied, in order. */
  applied: { subscriptionId: string; event: ClockEvent }[];
  /** The subscriptions whose admins were warned of the end. */
  warned: string[];
  /** Subscriptions whose event failed (logged; tried again on the next run). */
  failed: { subscriptionId: string; error: string }[];
  mailsSent: number;
}

/** When each of the clock's events is due, at `now`: the scan and the check once locked. */
const dueWhen: Record<ClockEvent, (now: Date) => SQL> = {
  trialEnds: (now) => and(eq(subscriptions.status, 'freeTrial'), lte(subscriptions.endDate, now))!,
  periodEnds: (now) =>
    and(
      eq(subscriptions.status, 'approved'),
      isNull(subscriptions.graceEndsAt),
      lte(subscriptions.endDate, now),
    )!,
  graceEnds: (now) => and(eq(subscriptions.status, 'approved'), lte(subscriptions.graceEndsAt, now))!,
};

/**
 * A trial or a period (not in grace) ending within `warningDays`, whose admins were not yet
 * warned of this end (`warned_for_end` holds the end they were warned of).
 */
const warningDue = (now: Date): SQL =>
  and(
    inArray(subscriptions.status, ['freeTrial', 'approved']),
    isNull(subscriptions.graceEndsAt),
    isNotNull(subscriptions.endDate),
    gt(subscriptions.endDate, now),
    lte(subscriptions.endDate, new Date(now.getTime() + warningMs)),
    or(isNull(subscriptions.warnedForEnd), ne(subscriptions.warnedForEnd, subscriptions.endDate)),
  )!;

/**
 * In a transaction of its own: the next subscription matching `due` that no other transaction
 * holds, locked until the end (FOR UPDATE SKIP LOCKED: a row another instance is handling is
 * passed over, and a row it has just handled no longer matches). Null when none is left.
 */
async function lockNextDue(
  tx: Database,
  due: SQL,
  skipped: readonly string[],
): Promise<SubscriptionRow | null> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(skipped.length > 0 ? and(due, notInArray(subscriptions.id, [...skipped])) : due)
    .orderBy(asc(subscriptions.endDate), asc(subscriptions.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

/**
 * Handles every due subscription one transaction at a time until none is left: `work` runs with
 * the locked row and returns the mails to send once its transaction committed.
 */
async function drain(
  services: SubscriptionClockServices,
  run: SubscriptionClockRun,
  due: SQL,
  work: (tx: Database, row: SubscriptionRow) => Promise<OutgoingMail[]>,
): Promise<string[]> {
  const handled: string[] = [];
  // A subscription whose event failed is passed over for the rest of this run, not retried in a loop.
  const skipped: string[] = [];
  for (;;) {
    let current: string | null = null;
    try {
      const mails = await services.db.transaction(async (tx) => {
        const row = await lockNextDue(tx, due, skipped);
        if (!row) return null;
        current = row.id;
        return work(tx, row);
      });
      if (mails === null) return handled;
      handled.push(current!);
      skipped.push(current!);
      run.mailsSent += await sendCommittedMails(services.mailer, services.log ?? stderrMailLog, mails);
    } catch (error) {
      if (current === null) throw error;
      skipped.push(current);
      run.failed.push({ subscriptionId: current, error: (error as Error).message });
      (services.log ?? stderrMailLog).error(
        { err: error, subscriptionId: current },
        'subscription clock event failed',
      );
    }
  }
}

/**
 * Applies every event due at `now` and sends the warnings due, each subscription in its own
 * transaction. Tests call it with the `now` they choose; the server calls it every minute.
 */
export function runSubscriptionClock(
  services: SubscriptionClockServices,
  now: Date,
): Promise<SubscriptionClockRun> {
  // Its changes are the system's, whoever's work started it.
  return asAuditActor('system', () => runClock(services, now));
}

async function runClock(services: SubscriptionClockServices, now: Date): Promise<SubscriptionClockRun> {
  const run: SubscriptionClockRun = { applied: [], warned: [], failed: [], mailsSent: 0 };
  for (const event of ['trialEnds', 'periodEnds', 'graceEnds'] as const) {
    const handled = await drain(services, run, dueWhen[event](now), async (tx, row) => {
      try {
        const applied = await applySubscriptionEvent(
          tx,
          {
            workspaceId: row.workspaceId,
            applicationId: row.applicationId,
            event,
            actor: 'clock',
            graceDays: services.graceDays,
          },
          now,
        );
        return mailsOfEvent(tx, applied, services.publicUrl);
      } catch (error) {
        // The table refusing a due event would be a bug of the scan: reported as a failure.
        if (error instanceof SubscriptionEventRefused) throw new Error(`${event} refused: ${error.reason}`);
        throw error;
      }
    });
    for (const subscriptionId of handled) run.applied.push({ subscriptionId, event });
  }
  run.warned = await drain(services, run, warningDue(now), async (tx, row) => {
    await tx
      .update(subscriptions)
      .set({ warnedForEnd: row.endDate })
      .where(and(eq(subscriptions.workspaceId, row.workspaceId), eq(subscriptions.id, row.id)));
    const [application] = await tx.select().from(applications).where(eq(applications.id, row.applicationId));
    const renewing = row.status === 'approved' && !row.cancelling;
    const plan = row.nextPlan ?? row.plan;
    const next =
      renewing && plan
        ? invoiceDraft(
            {
              application: application!,
              plan,
              periodStart: row.endDate!,
              periodEnd: periodEnd(row.endDate!, plan, await workspaceTimeZone(tx, row.workspaceId)),
            },
            await activeLocationCount(tx, row.workspaceId),
          )
        : null;
    return endingSoonMails(tx, row, application!, next, services.publicUrl);
  });
  return run;
}

/**
 * How many subscriptions have an event or a warning due at `now` and not yet applied: what the
 * next run will handle. Near 0 between runs when the clock keeps up (a metric).
 */
export async function subscriptionClockBacklog(db: Database, now: Date): Promise<number> {
  const [row] = await db
    .select({ due: count() })
    .from(subscriptions)
    .where(or(dueWhen.trialEnds(now), dueWhen.periodEnds(now), dueWhen.graceEnds(now), warningDue(now)));
  return row?.due ?? 0;
}

/** Told of each run's outcome (the metrics). */
export interface SubscriptionClockObserver {
  ran(failedEvents: number): void;
  runFailed(): void;
}

interface SubscriptionClockTimer {
  /** Stops the timer and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs the clock every `intervalMs` (never two runs of this process at once), on a timer that
 * does not keep the process alive. A failed run is logged and the next one tries again.
 */
export function startSubscriptionClock(
  services: SubscriptionClockServices & {
    log: MailLog & { info?: (object: unknown, message: string) => void };
  },
  intervalMs: number,
  now: () => Date = () => new Date(),
  observer?: SubscriptionClockObserver,
): SubscriptionClockTimer {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = runSubscriptionClock(services, now())
      .then((run) => {
        observer?.ran(run.failed.length);
        if (run.applied.length > 0 || run.warned.length > 0)
          services.log.info?.(
            { applied: run.applied.length, warned: run.warned.length, failed: run.failed.length },
            'subscription clock',
          );
      })
      .catch((error: unknown) => {
        observer?.runFailed();
        services.log.error({ err: error }, 'subscription clock run failed');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
