import type { ResourceKey } from '@dukkan/contract';
import { useLocationInvoiceNotice } from '../features/subscriptions/location-invoice-notice.tsx';
import type { UseOperationNotice } from '../resource-ui/operation-notice.ts';

/**
 * The declared hooks of the generic resource pages (`resource-ui/operation-notice.ts`): what an
 * operation on a resource changes elsewhere, said in its dialog. A location created, enabled,
 * disabled or deleted moves the next invoice of a paid subscription.
 */
export const operationNotices: Partial<Record<ResourceKey, UseOperationNotice>> = {
  locations: useLocationInvoiceNotice,
};
