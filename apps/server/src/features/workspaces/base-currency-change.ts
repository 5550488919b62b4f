import {
  type BaseCurrencyChange,
  convertMoney,
  minorUnitDigits,
  type RebaseOutcome,
  rebaseExchangeRates,
  validationCodes,
} from '@dukkan/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { auditedChange, recordAuditFrom } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { exchangeRates, products, productVariants, workspaces } from '../../db/schema/index.ts';
import { validationError } from '../../errors.ts';

/*
 * A new base currency re-expresses everything the workspace counts in its base: the exchange
 * rates (through the new base's own rate, `rebaseExchangeRates`) and every price and cost of its
 * products and variants (at that same rate, `convertMoney`, rounded half-up). Decided before
 * anything changes — the settings page asks first (`GET …/base-currency-change`) to name what
 * will change — and refused under `baseCurrency`, with nothing changed, where it cannot be done.
 */

type Refusal = 'PRICES_NEED_A_RATE' | 'MONEY_TOO_LARGE' | 'BASE_CURRENCY_HAS_NO_RATE' | 'RATE_OUT_OF_RANGE';

/** Everything a change of the base currency does, decided before any write. */
interface BaseCurrencyPlan extends BaseCurrencyChange {
  oldBase: string;
  newBase: string;
  storedRates: { id: string; currency: string; rate: number }[];
  rebased: RebaseOutcome;
  refusal?: Refusal;
}

/**
 * The stored prices and costs of the workspace's products and variants that are not zero (a zero
 * is zero in any currency), and the largest of them: converted, it is the largest the change makes.
 */
async function storedAmounts(db: Database, workspaceId: string) {
  const found = await db.execute(sql`
    with amounts as (
      select count(*) filter (where price <> 0) + count(*) filter (where cost <> 0) as amounts,
        max(greatest(price, cost)) as largest
      from ${products} where workspace_id = ${workspaceId}
      union all
      select count(*) filter (where price <> 0) + count(*) filter (where cost <> 0),
        max(greatest(price, cost))
      from ${productVariants} where workspace_id = ${workspaceId}
    )
    select sum(amounts)::text as amounts, max(largest)::text as largest from amounts`);
  const [row] = (found as unknown as { rows: { amounts: string | null; largest: string | null }[] }).rows;
  return { amounts: Number(row?.amounts ?? 0), largest: Number(row?.largest ?? 0) };
}

/**
 * What changing the workspace's base currency to `newBase` would do: the rates rebased, how many
 * amounts convert and at which rate, or why it is refused. With `lock`, the workspace row is
 * locked for the rest of the transaction first: a rate or a new product written meanwhile waits
 * (their checks read the base), and the plan stays true until the change commits.
 */
export async function planBaseCurrencyChange(
  db: Database,
  workspaceId: string,
  newBase: string,
  lock: boolean,
): Promise<BaseCurrencyPlan | null> {
  const query = db
    .select({ baseCurrency: workspaces.baseCurrency })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const [workspace] = await (lock ? query.for('update') : query);
  if (!workspace) return null;
  const oldBase = workspace.baseCurrency;
  if (oldBase === newBase) {
    return { oldBase, newBase, storedRates: [], rebased: { ok: true, rates: [] }, amounts: 0, rate: null };
  }
  const storedRates = await db
    .select({ id: exchangeRates.id, currency: exchangeRates.currency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(eq(exchangeRates.workspaceId, workspaceId));
  const rebased = rebaseExchangeRates(storedRates, oldBase, newBase);
  const { amounts, largest } = await storedAmounts(db, workspaceId);
  const rate = amounts > 0 ? (storedRates.find((entry) => entry.currency === newBase)?.rate ?? null) : null;
  let refusal: Refusal | undefined;
  if (amounts > 0 && rate === null) refusal = validationCodes.PRICES_NEED_A_RATE;
  else if (rate !== null && convertMoney(largest, oldBase, newBase, rate) === null) {
    refusal = validationCodes.MONEY_TOO_LARGE;
  } else if (!rebased.ok) refusal = validationCodes[rebased.code];
  return { oldBase, newBase, storedRates, rebased, amounts, rate, ...(refusal ? { refusal } : {}) };
}

/**
 * `amount` at the plan's rate in SQL, exactly as `convertMoney` computes it: minor units × 10^(new
 * digits) × 10^8 over 10^(old digits) × the rate at 8 decimals, rounded half-up (`div` of numerics
 * truncates, and the amounts are never negative). Null stays null.
 */
function converted(amount: string, plan: BaseCurrencyPlan, rate: number): ReturnType<typeof sql> {
  const numerator = 10n ** BigInt(minorUnitDigits(plan.newBase)) * 100_000_000n;
  const denominator = 10n ** BigInt(minorUnitDigits(plan.oldBase)) * BigInt(Math.round(rate * 1e8));
  const [n, d] = [sql.raw(`${numerator}::numeric`), sql.raw(`${denominator}::numeric`)];
  const column = sql.identifier(amount);
  return sql`div(2 * ${column} * ${n} + ${d}, 2 * ${d})::bigint`;
}

/**
 * Each product the conversion changes, on the log as its own update (as if saved with its new
 * prices): its price, cost and price range, and its variants' prices and costs by key as a save
 * records them, each `[before, after]` of what changes. Written before the conversion, from the
 * amounts it will convert, in two set-based statements: the workspace's products are locked first
 * (as the conversion would lock them), so no save changes an amount between its row and its
 * conversion — a variant is written only under its product's lock.
 */
async function recordConversions(tx: Database, workspaceId: string, amount: (name: string) => SQL) {
  await tx.execute(sql`select count(*) from (
    select 1 from ${products} where workspace_id = ${workspaceId} for no key update) as locked`);
  // A field's `[before, after]`, null (left out) when the conversion keeps it.
  const pair = (name: string) =>
    sql`case when ${sql.identifier(name)} <> ${amount(name)}
      then jsonb_build_array(${sql.identifier(name)}, ${amount(name)}) end`;
  const side = (name: string, index: 0 | 1) =>
    sql`case when ${sql.identifier(name)} <> ${amount(name)}
      then ${index === 0 ? sql.identifier(name) : amount(name)} end`;
  await recordAuditFrom(
    tx,
    { workspaceId, action: 'update', resource: 'products' },
    sql`
      with variant as (
        select product_id, key,
          jsonb_strip_nulls(jsonb_build_object('price', ${side('price', 0)}, 'cost', ${side('cost', 0)})) as was,
          jsonb_strip_nulls(jsonb_build_object('price', ${side('price', 1)}, 'cost', ${side('cost', 1)})) as now
        from ${productVariants}
        where workspace_id = ${workspaceId} and (price <> 0 or cost <> 0)
      ),
      changed_variants as (
        select product_id, jsonb_object_agg(key, was) as was, jsonb_object_agg(key, now) as now
        from variant where was <> '{}'::jsonb
        group by product_id
      )
      select product.id::text as record_id, jsonb_strip_nulls(jsonb_build_object(
          'price', ${pair('price')}, 'cost', ${pair('cost')},
          'priceMin', ${pair('price_min')}, 'priceMax', ${pair('price_max')},
          'variants', case when changed_variants.product_id is not null
            then jsonb_build_array(changed_variants.was, changed_variants.now) end)) as changes
      from ${products} as product
      left join changed_variants on changed_variants.product_id = product.id
      where product.workspace_id = ${workspaceId}`,
  );
}

/**
 * Converts every price and cost of the workspace's products and variants at the plan's rate, in
 * two set-based statements whatever their number (100,000 variants: see bench/README.md). The
 * products first, every one of the workspace's: the statement waits for a save holding a product
 * row and converts what it wrote, and the variants' statement, later, then reads that save's
 * variants too (each statement of the transaction sees what committed before it began).
 */
async function convertPrices(tx: Database, workspaceId: string, plan: BaseCurrencyPlan, rate: number) {
  const amount = (name: string) => converted(name, plan, rate);
  await recordConversions(tx, workspaceId, amount);
  await tx.execute(sql`update ${products}
    set price = ${amount('price')}, cost = ${amount('cost')},
        price_min = ${amount('price_min')}, price_max = ${amount('price_max')}
    where workspace_id = ${workspaceId}`);
  await tx.execute(sql`update ${productVariants}
    set price = ${amount('price')}, cost = ${amount('cost')}
    where workspace_id = ${workspaceId} and (price <> 0 or cost <> 0)`);
}

/**
 * Changes the workspace's base currency inside the caller's transaction (the settings' PATCH):
 * refused under `baseCurrency` with nothing changed, else the exchange rates rebased (the new
 * base's row becomes the old base's, the others divided) and the prices converted.
 */
export async function changeBaseCurrency(tx: Database, workspaceId: string, newBase: string, now: Date) {
  const plan = await planBaseCurrencyChange(tx, workspaceId, newBase, true);
  if (!plan || plan.oldBase === newBase) return;
  if (plan.refusal) {
    throw validationError([{ path: 'baseCurrency', message: validationCodes[plan.refusal] }]);
  }
  if (plan.rate !== null) await convertPrices(tx, workspaceId, plan, plan.rate);
  await rebaseRates(tx, workspaceId, plan, now);
}

async function rebaseRates(tx: Database, workspaceId: string, plan: BaseCurrencyPlan, now: Date) {
  const { oldBase, newBase, storedRates, rebased } = plan;
  const pivot = storedRates.find((entry) => entry.currency === newBase);
  if (!pivot || !rebased.ok) return;
  // Each rate deleted or changed is on the log as its own record's delete or update.
  const audited = (id: string, work: () => Promise<unknown>) => {
    const where = and(eq(exchangeRates.workspaceId, workspaceId), eq(exchangeRates.id, id));
    return auditedChange(
      tx,
      exchangeRates,
      { workspaceId, resource: 'exchangeRates', recordId: id, where },
      work,
    );
  };
  // A rate for the old base itself cannot be kept by the rule; it is replaced by the converted one.
  const oldBaseRate = storedRates.find((entry) => entry.currency === oldBase);
  if (oldBaseRate) {
    await audited(oldBaseRate.id, () =>
      tx
        .delete(exchangeRates)
        .where(and(eq(exchangeRates.workspaceId, workspaceId), eq(exchangeRates.id, oldBaseRate.id))),
    );
  }
  for (const entry of rebased.rates) {
    const row =
      entry.currency === oldBase
        ? pivot
        : storedRates.find((candidate) => candidate.currency === entry.currency);
    if (!row) continue;
    await audited(row.id, () =>
      tx
        .update(exchangeRates)
        .set({ currency: entry.currency, rate: entry.rate, updatedAt: now })
        .where(and(eq(exchangeRates.workspaceId, workspaceId), eq(exchangeRates.id, row.id))),
    );
  }
}
