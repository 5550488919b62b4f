import type { SignInEvent } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../lib/use-formatters.ts';
import { deviceOf } from '../lib/user-agent.ts';
import { Badge } from './ui/badge.tsx';

/**
 * Sign-in events, newest first: when, (whose,) what happened and whether it succeeded, from which
 * address and device (the browser and system its user agent names).
 */
export function SignInList({
  events,
  showPerson = false,
}: {
  events: readonly SignInEvent[];
  showPerson?: boolean;
}) {
  const { t } = useTranslation();
  const { formatDate, formatTime } = useFormatters();
  return (
    <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="sign-in-list">
      {events.map((event) => {
        const { browser, system } = deviceOf(event.userAgent);
        const device =
          browser && system
            ? t('signIns.deviceOn', { browser, system })
            : (browser ?? system ?? t('signIns.unknownDevice'));
        return (
          <li
            key={event.id}
            className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-5"
            data-testid="sign-in"
          >
            <time
              dateTime={event.at}
              className="shrink-0 text-sm text-slate-600 tabular-nums sm:w-52 dark:text-slate-400"
            >
              {formatDate(event.at)} · {formatTime(event.at)}
            </time>
            <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              {showPerson && (
                <span className="font-semibold text-slate-900 dark:text-white">{event.userName}</span>
              )}
              <Badge tone={event.success ? 'success' : 'danger'}>
                {t(`signIns.kinds.${event.kind}` as never) as string}
              </Badge>
              <span className="sr-only">{event.success ? t('signIns.succeeded') : t('signIns.failed')}</span>
              <span className="text-slate-700 dark:text-slate-300">{device}</span>
              {event.address && (
                <span className="text-slate-500 dark:text-slate-400">
                  <span className="sr-only">{t('signIns.address')} </span>
                  <bdi dir="ltr" className="font-mono text-xs">
                    {event.address}
                  </bdi>
                </span>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
