import { type PlanLength, planMonths } from '@dukkan/contract';
import type { applications, payments, subscriptions } from '../../db/schema/index.ts';

/* The stored rows of the subscriptions feature, and the calendar of their periods. */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;
export type InvoiceRow = typeof payments.$inferSelect;

/**
 * `months` calendar months after `from`, at the same time of day (UTC); a day the target month
 * lacks becomes its last day (31 January + 1 month = 28 or 29 February).
 */
export function addCalendarMonths(from: Date, months: number): Date {
  const day = from.getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

const dayMs = 24 * 60 * 60 * 1000;
export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * dayMs);

/** The end of a period of `plan` starting at `start`. */
export const periodEnd = (start: Date, plan: PlanLength) => addCalendarMonths(start, planMonths[plan]);
