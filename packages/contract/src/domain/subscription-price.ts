/*
 * What a subscription to one of the platform's applications costs (spec §4: plans priced per
 * location per month, with a discount per plan length). Amounts are integer minor units of the
 * application's currency; discounts are basis points (1,000 = 10 %), so no fraction of a minor
 * unit is ever stored.
 */

/** The plan lengths (spec §4), shortest first. */
export const planLengths = ['monthly', 'quarterly', 'semiannually', 'annually'] as const;
export type PlanLength = (typeof planLengths)[number];

/** The months a plan length pays for. */
export const planMonths: Readonly<Record<PlanLength, number>> = {
  monthly: 1,
  quarterly: 3,
  semiannually: 6,
  annually: 12,
};

/** A whole discount: 10,000 basis points. */
export const fullDiscountBasisPoints = 10_000;

export interface PeriodPriceInput {
  /** The plan's price for one location for one month, in minor units. */
  monthlyPricePerLocation: number;
  /** The workspace's active locations; a workspace without any pays for one. */
  activeLocations: number;
  plan: PlanLength;
  /** The plan length's discount, in basis points (0 to 10,000). */
  discountBasisPoints: number;
}

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * The price of one period: monthly price per location × max(1, active locations) × the plan's
 * months × (1 − discount), in minor units, rounded half-up. Computed on integers (BigInt), so the
 * figure is exact whatever the amounts. Refuses (RangeError) amounts that are not whole
 * non-negative numbers, a discount outside 0–10,000 basis points, and a price past the largest
 * safe integer.
 */
export function periodPrice({
  monthlyPricePerLocation,
  activeLocations,
  plan,
  discountBasisPoints,
}: PeriodPriceInput): number {
  if (!isCount(monthlyPricePerLocation)) throw new RangeError('The monthly price must be a whole amount ≥ 0');
  if (!isCount(activeLocations)) throw new RangeError('Active locations must be a whole number ≥ 0');
  if (!isCount(discountBasisPoints) || discountBasisPoints > fullDiscountBasisPoints)
    throw new RangeError('The discount must be 0 to 10,000 basis points');
  const months = planMonths[plan];
  if (months === undefined) throw new RangeError(`Unknown plan: ${String(plan)}`);
  const full = BigInt(fullDiscountBasisPoints);
  const undiscounted =
    BigInt(monthlyPricePerLocation) * BigInt(Math.max(1, activeLocations)) * BigInt(months);
  const scaled = undiscounted * (full - BigInt(discountBasisPoints));
  // Half-up: add half the divisor before the whole division (every term is ≥ 0).
  const price = (scaled + full / 2n) / full;
  if (price > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('The price is too large');
  return Number(price);
}

/** What a period is priced from, but for the locations: an invoice's or a renewing plan's basis. */
export type PeriodPriceBasis = Omit<PeriodPriceInput, 'activeLocations'>;

export interface NextInvoiceChange {
  /** The next invoice's amount with today's active locations. */
  before: number;
  /** Its amount once the change is made. */
  after: number;
}

/**
 * How a change of the workspace's active locations (a location created or enabled: +1; disabled
 * or deleted while active: −1) changes the next invoice of a renewing subscription: the same
 * `periodPrice` the invoice will be issued with, before and after (a workspace without any active
 * location still pays for one, so 0 → 1 changes nothing).
 */
export function nextInvoiceChange(
  basis: PeriodPriceBasis,
  activeLocations: number,
  change: number,
): NextInvoiceChange {
  if (!Number.isSafeInteger(change)) throw new RangeError('The change of locations must be a whole number');
  return {
    before: periodPrice({ ...basis, activeLocations }),
    after: periodPrice({ ...basis, activeLocations: Math.max(0, activeLocations + change) }),
  };
}
