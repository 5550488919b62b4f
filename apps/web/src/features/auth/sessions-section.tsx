import type { SessionSummary } from '@dukkan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/page.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useFormatters } from '../../lib/use-formatters.ts';
import { deviceOf } from '../../lib/user-agent.ts';

/** How a session proved who it is, as the person reads it: the password, a code, a passkey. */
export function factorLabels(factors: readonly string[]): ('pwd' | 'otp' | 'key')[] {
  const labels = new Set<'pwd' | 'otp' | 'key'>();
  for (const factor of factors) {
    if (factor === 'pwd') labels.add('pwd');
    else if (factor === 'otp') labels.add('otp');
    else if (factor === 'hwk' || factor === 'swk') labels.add('key');
  }
  return [...labels];
}

function SessionRow({ session, onSignOut }: { session: SessionSummary; onSignOut: () => void }) {
  const { t } = useTranslation();
  const { formatDate, formatTime } = useFormatters();
  const { browser, system } = deviceOf(session.userAgent);
  const device =
    browser && system
      ? t('signIns.deviceOn', { browser, system })
      : (browser ?? system ?? t('signIns.unknownDevice'));
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" data-testid="session">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900 dark:text-white">{device}</span>
          {session.current && <Badge tone="success">{t('sessions.thisDevice')}</Badge>}
          {factorLabels(session.factors).map((label) => (
            <Badge key={label} tone="neutral">
              {t(`sessions.factors.${label}`)}
            </Badge>
          ))}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t('sessions.lastSeen')}{' '}
          <time dateTime={session.lastSeenAt} className="tabular-nums">
            {formatDate(session.lastSeenAt)} · {formatTime(session.lastSeenAt)}
          </time>
          {session.address && (
            <>
              {' · '}
              <span className="sr-only">{t('signIns.address')} </span>
              <bdi dir="ltr" className="font-mono text-xs">
                {session.address}
              </bdi>
            </>
          )}
        </p>
      </div>
      {!session.current && (
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={onSignOut}
          aria-label={t('sessions.signOutNamed', { device })}
        >
          {t('sessions.signOut')}
        </Button>
      )}
    </li>
  );
}

/** "Your sessions": where the person is signed in, and signing any other one out. */
export function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: queryKeys.ownSessions,
    queryFn: ({ signal }) => apiRequest<SessionSummary[]>('/auth/sessions', { signal }),
  });
  const [ending, setEnding] = useState<SessionSummary | 'others' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.ownSessions });

  if (sessions.isError) {
    return (
      <LoadFailed
        error={sessions.error}
        message={t('sessions.loadFailed')}
        onRetry={() => void sessions.refetch()}
      />
    );
  }
  if (!sessions.data) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {t('common.loading')}
      </p>
    );
  }
  const others = sessions.data.filter((session) => !session.current);
  return (
    <div className="space-y-4">
      <ul className="-mx-6 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {sessions.data.map((session) => (
          <SessionRow key={session.id} session={session} onSignOut={() => setEnding(session)} />
        ))}
      </ul>
      {others.length > 0 && (
        <div className="flex justify-end">
          <Button type="button" variant="secondary" onClick={() => setEnding('others')}>
            {t('sessions.signOutOthers')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => {
          if (!open) setEnding(null);
        }}
        title={ending === 'others' ? t('sessions.signOutOthersTitle') : t('sessions.signOutTitle')}
        keepLabel={t('sessions.keep')}
        confirmLabel={ending === 'others' ? t('sessions.signOutOthers') : t('sessions.signOut')}
        onConfirm={async () => {
          if (ending === 'others') {
            await apiRequest('/auth/sessions/sign-out-others', { method: 'POST', body: {} });
          } else if (ending) {
            await apiRequest(`/auth/sessions/${ending.id}`, { method: 'DELETE' });
          }
          toast.success(t('sessions.signedOut'));
          await refresh();
        }}
      >
        {ending === 'others' ? t('sessions.signOutOthersBody') : t('sessions.signOutBody')}
      </ConfirmDialog>
    </div>
  );
}
