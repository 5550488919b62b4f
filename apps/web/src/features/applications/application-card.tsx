import {
  type DashboardApplication,
  type DashboardMeta,
  formatMoney,
  nameInitials,
  pickLocalized,
  type WorkspaceSubscriptionEvent,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { HowToPay } from '../../components/how-to-pay.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { useFormatters } from '../../lib/use-formatters.ts';
import { cardStateText } from './application-state.ts';

/** The id of a card's title, which takes the focus when the button that had it is gone. */
export const cardTitleId = (application: Pick<DashboardApplication, 'id'>) =>
  `application-${application.id}-title`;

/** The order actions are offered in: what starts or continues a subscription first, cancel last. */
const actionOrder: readonly WorkspaceSubscriptionEvent[] = [
  'startTrial',
  'request',
  'renew',
  'changePlan',
  'cancel',
];

/**
 * One application on the dashboard: its logo (or initials), name and description, the
 * workspace's state of it, and exactly the actions the lifecycle allows from that state —
 * those that change the subscription only for members who may (`mayChange`).
 */
export function ApplicationCard({
  application,
  mayChange,
  now,
  meta,
  onAction,
}: {
  application: DashboardApplication;
  mayChange: boolean;
  now: number;
  /** What the dashboard says of the operator (their review delay). */
  meta?: Pick<DashboardMeta, 'reviewHours'>;
  onAction: (event: WorkspaceSubscriptionEvent) => void;
}) {
  const { t, i18n } = useTranslation();
  const { formatDate } = useFormatters();
  const language = i18n.language;
  const name = pickLocalized(application.name, language);
  const description = pickLocalized(application.description, language);
  const state = cardStateText(application, { t, language, formatDate, now, meta });
  const events = mayChange ? actionOrder.filter((event) => application.allowedEvents.includes(event)) : [];
  const mayOpen = application.card === 'freeTrial' || application.card === 'subscribed';
  const { currency, monthlyPricePerLocation } = application.pricing;

  return (
    <Card className="flex flex-col p-5" aria-labelledby={cardTitleId(application)} role="article">
      <div className="flex items-start gap-3">
        <Avatar src={application.logo} fallback={nameInitials(name)} size="lg" shape="rounded" />
        <div className="min-w-0 flex-1">
          <h2
            id={cardTitleId(application)}
            tabIndex={-1}
            className="truncate text-base font-semibold text-slate-900 outline-none dark:text-white"
          >
            {name}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t('applications.price', { price: formatMoney(monthlyPricePerLocation, currency, language) })}
          </p>
        </div>
      </div>
      {description !== '-' && (
        <p className="mt-3 line-clamp-3 text-sm text-slate-700 dark:text-slate-300">{description}</p>
      )}
      <div className="mt-4 space-y-1">
        <Badge tone={state.tone}>{state.label}</Badge>
        {state.hints?.map((hint) => (
          <p key={hint} className="text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        ))}
        {state.due && (
          <HowToPay payment={state.due} className="mt-2 text-xs text-slate-600 dark:text-slate-400" />
        )}
      </div>
      {(events.length > 0 || mayOpen) && (
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-5">
          {mayOpen && (
            <a
              href={application.homeUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClassName('primary', 'sm')}
            >
              {t('applications.actions.open')}
              <span className="sr-only"> {t('applications.opensInNewTab')}</span>
            </a>
          )}
          {events.map((event) => (
            <Button
              key={event}
              size="sm"
              variant={event === 'cancel' ? 'ghost' : mayOpen ? 'secondary' : 'primary'}
              className={event === 'cancel' ? 'text-red-700 dark:text-red-400' : undefined}
              onClick={() => onAction(event)}
            >
              {t(`applications.actions.${event}`)}
            </Button>
          ))}
        </div>
      )}
    </Card>
  );
}
