import type { UpcomingPayment, UpcomingPaymentsMeta } from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequestList } from '../../lib/api-client.ts';

interface UpcomingInvoices {
  data: UpcomingPayment[];
  meta: UpcomingPaymentsMeta;
}

/**
 * `GET payments/upcoming?workspaceId=…`: the next invoice of each renewing subscription, with the
 * workspace's active locations and grace days (`meta`). Cached under `queryKey`: the invoices
 * page's, or the locations' (so a location's change fetches it again).
 */
export function useUpcomingInvoices(
  queryKey: readonly unknown[],
  workspaceId: string | null,
  enabled: boolean,
) {
  return useQuery({
    queryKey: [...queryKey, 'upcoming-invoices'],
    queryFn: async ({ signal }): Promise<UpcomingInvoices> => {
      const answer = (await apiRequestList<UpcomingPayment>('/payments/upcoming', {
        query: { workspaceId },
        signal,
      })) as unknown as { data: UpcomingPayment[]; meta?: Partial<UpcomingPaymentsMeta> };
      return {
        data: answer.data,
        meta: {
          activeLocations: answer.meta?.activeLocations ?? 0,
          graceDays: answer.meta?.graceDays ?? 0,
        },
      };
    },
    enabled: enabled && workspaceId !== null,
  });
}
