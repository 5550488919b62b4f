import { type BankTransferInstructions, bankTransferInstructionsSchema } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appMeta } from '../../db/schema/index.ts';

/*
 * Bank transfer, the default way a workspace pays an invoice: the operator's account details, set
 * with `npm run dukkan -- set-bank-transfer` and kept in the database (one `app_meta` row, as JSON),
 * so every instance on the database shows the same; each pending invoice shows them with its number
 * as the transfer's reference. The operator records the payment as before (`record-payment`).
 */

/** The `app_meta` key the instructions are kept under. */
export const bankTransferKey = 'payments.bank_transfer';

/** The operator's instructions, or null when none were set. */
export async function readBankTransfer(db: Database): Promise<BankTransferInstructions | null> {
  const [row] = await db
    .select({ value: appMeta.value })
    .from(appMeta)
    .where(eq(appMeta.key, bankTransferKey))
    .limit(1);
  if (!row) return null;
  const parsed = bankTransferInstructionsSchema.safeParse(JSON.parse(row.value));
  // A row no longer of the shape (written by hand) shows as none rather than failing every page.
  return parsed.success ? parsed.data : null;
}

/** Replaces the instructions. */
export async function saveBankTransfer(db: Database, instructions: BankTransferInstructions): Promise<void> {
  const value = JSON.stringify(bankTransferInstructionsSchema.parse(instructions));
  await db
    .insert(appMeta)
    .values({ key: bankTransferKey, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value } });
}

/** Removes the instructions; whether there were any. */
export async function clearBankTransfer(db: Database): Promise<boolean> {
  const removed = await db
    .delete(appMeta)
    .where(eq(appMeta.key, bankTransferKey))
    .returning({ key: appMeta.key });
  return removed.length > 0;
}
