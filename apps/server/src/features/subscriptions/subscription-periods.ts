import { addCalendarDays, addCalendarMonths, type PlanLength, planMonths } from '@dukkan/contract';
import type { applications, payments, subscriptions } from '../../db/schema/index.ts';

/* The stored rows of the subscriptions feature, and the calendar of their periods. */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;
export type InvoiceRow = typeof payments.$inferSelect;

/*
 * A period, a trial and a grace are counted in calendar months and days of the workspace's time
 * zone, at the same wall-clock time: a period started at 01:00 on 31 March in Cairo ends at 01:00
 * on 30 April there (in UTC it would have been 1 May), and keeps its 01:00 over a change of the
 * clocks. Its end is when the next invoice is due.
 */

/** The end of a period of `plan` starting at `start`, in the workspace's `timeZone`. */
export const periodEnd = (start: Date, plan: PlanLength, timeZone: string) =>
  addCalendarMonths(start, planMonths[plan], timeZone);

/** `days` calendar days after `from` in the workspace's `timeZone` (a trial's end, a grace's). */
export const daysLater = (from: Date, days: number, timeZone: string) =>
  addCalendarDays(from, days, timeZone);
