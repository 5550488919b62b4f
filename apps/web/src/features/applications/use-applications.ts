import {
  type DashboardApplication,
  type DashboardMeta,
  type PermissionTag,
  pickLocalized,
  type SubscriptionEventInput,
  type SubscriptionSummary,
} from '@dukkan/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { apiRequest, apiRequestList } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useCan, useWorkspace } from '../../lib/workspace-context.tsx';
import { PermissionDeniedError } from '../../resource-ui/use-resource.ts';

/** The tag that lets a member change the workspace's subscriptions from the dashboard. */
export const changeSubscriptionsTag: PermissionTag = 'addSubscriptions';

/**
 * The applications' cache of a workspace: the dashboard's cards and the Users page's installed
 * applications share the prefix, so one subscription event refreshes both.
 */
const applicationsKey = (workspaceId: string) => queryKeys.resource(workspaceId, 'applications');

interface DashboardAnswer {
  data: DashboardApplication[];
  meta: DashboardMeta;
}

/** `GET applications?workspaceId=…`: every application with the workspace's state and its active locations. */
export function useDashboardApplications() {
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id ?? null;
  const mayView = useCan({ and: ['viewApplications'] });
  // The server sorts the applications by name in the reader's language: another language is another list.
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [...applicationsKey(workspaceId ?? ''), 'dashboard', language],
    queryFn: async ({ signal }): Promise<DashboardAnswer> => {
      // The whole body: its `meta` is what prices are computed from, not a page's.
      const answer = (await apiRequestList<DashboardApplication>('/applications', {
        query: { workspaceId },
        signal,
        language,
      })) as unknown as DashboardAnswer;
      return {
        data: answer.data,
        meta: {
          activeLocations: answer.meta?.activeLocations ?? 0,
          reviewHours: answer.meta?.reviewHours ?? null,
          graceDays: answer.meta?.graceDays ?? 0,
        },
      };
    },
    enabled: workspaceId !== null && mayView,
  });
}

/**
 * `POST subscriptions/events?workspaceId=…`: one lifecycle event from a card. Refused before
 * sending without addSubscriptions; once done, the cards, the installed list, the subscriptions,
 * the invoices and the Get started list of the workspace are fetched again (awaited, so a dialog
 * closes on fresh cards).
 */
export function useSubscriptionEvent() {
  const { selectedWorkspace } = useWorkspace();
  const workspaceId = selectedWorkspace?.id ?? null;
  const mayChange = useCan({ and: [changeSubscriptionsTag] });
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SubscriptionEventInput) => {
      if (!workspaceId) throw new PermissionDeniedError(null);
      if (!mayChange) throw new PermissionDeniedError(changeSubscriptionsTag);
      const summary = await apiRequest<SubscriptionSummary>('/subscriptions/events', {
        method: 'POST',
        body: input,
        query: { workspaceId },
      });
      await Promise.all([
        ...['applications', 'subscriptions', 'payments'].map((key) =>
          queryClient.invalidateQueries({ queryKey: queryKeys.resource(workspaceId, key) }),
        ),
        // A first subscription ticks the Get started list's last step.
        queryClient.invalidateQueries({ queryKey: queryKeys.getStarted(workspaceId) }),
      ]);
      return summary;
    },
  });
}

/**
 * A card's Start free trial: the trial starts at once (no dialog), and a toast says it did, or why
 * not in the reader's words. Resolves whether it started. The dashboard and the sign-in portal's
 * Access Denied both start trials through it.
 */
export function useStartTrial() {
  const send = useSubscriptionEvent();
  const { t, i18n } = useTranslation();
  return async (application: DashboardApplication): Promise<boolean> => {
    const language = i18n.language;
    const name = pickLocalized(application.name, language);
    try {
      await send.mutateAsync({ applicationId: application.id, event: 'startTrial' });
      toast.success(t('applications.done.startTrial', { app: name }));
      return true;
    } catch (error) {
      toast.error(describeApiError(error, t, language));
      return false;
    }
  };
}
