import { validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { workspaces } from '../../db/schema/index.ts';
import { validationError } from '../../errors.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * Exchange rates are against the workspace's base currency (its settings): a rate for the base
 * itself would always be 1, so it is refused under the currency field (create, bulk and update).
 */
export const exchangeRatesCustomization: ResourceCustomization = {
  key: 'exchangeRates',
  hooks: {
    async beforeWrite({ db, workspaceId }, input) {
      if (typeof input.currency !== 'string') return;
      const [workspace] = await db
        .select({ baseCurrency: workspaces.baseCurrency })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        // A change of the base waits for this write (and this write for it): never a rate for the new base.
        .for('share');
      if (workspace?.baseCurrency === input.currency) {
        throw validationError([{ path: 'currency', message: validationCodes.CURRENCY_IS_BASE }]);
      }
    },
  },
};
