import type { CurrentUser, SecondFactorList, SecondFactorMethod } from '@dukkan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/page.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { SecondStep } from './second-step.tsx';

/** The ways the person can step up: each kind of factor they hold, and recovery codes while any are left. */
export function methodsOf(list: SecondFactorList): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (list.factors.some((factor) => factor.kind === 'totp')) methods.push('totp');
  if (list.factors.some((factor) => factor.kind === 'passkey')) methods.push('passkey');
  if (list.recoveryCodesLeft > 0) methods.push('recovery');
  return methods;
}

/**
 * A signed-in session's step-up: the person's factors, then the second step with one of them.
 * The stepped-up session (a new token, its cookie set by the answer) becomes the current user's;
 * `onSteppedUp` then does what was refused before (a workspace's pages ask again, the portal signs
 * in to the application). Shared by the workspace's prompt and the sign-in portal.
 */
export function StepUp({ onSteppedUp }: { onSteppedUp: (user: CurrentUser) => Promise<void> | void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: queryKeys.secondFactors,
    queryFn: ({ signal }) => apiRequest<SecondFactorList>('/auth/second-factors', { signal }),
  });
  const steppedUp = async (user: CurrentUser) => {
    queryClient.setQueryData(queryKeys.currentUser, user);
    await onSteppedUp(user);
  };
  if (list.isError)
    return (
      <LoadFailed error={list.error} message={t('security.loadFailed')} onRetry={() => void list.refetch()} />
    );
  if (!list.data)
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {t('common.loading')}
      </p>
    );
  return <SecondStep methods={methodsOf(list.data)} onDone={steppedUp} />;
}
