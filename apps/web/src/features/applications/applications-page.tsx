import { type DashboardApplication, pickLocalized, type WorkspaceSubscriptionEvent } from '@dukkan/contract';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { EmptyState, LoadFailed, Page } from '../../components/page.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { HomeIcon } from '../../components/ui/icons.tsx';
import { useFormatters } from '../../lib/use-formatters.ts';
import { useCan } from '../../lib/workspace-context.tsx';
import { ApplicationCard, cardTitleId } from './application-card.tsx';
import { applicationsSectionId, GetStarted } from './get-started.tsx';
import { PlanDialog, type PlanEvent } from './plan-dialog.tsx';
import {
  changeSubscriptionsTag,
  useDashboardApplications,
  useStartTrial,
  useSubscriptionEvent,
} from './use-applications.ts';

interface OpenAction {
  application: DashboardApplication;
  event: PlanEvent | 'cancel';
  /** The button that opened it: focus goes back there, or to the card when the button is gone. */
  opener: HTMLElement | null;
}

const gridClassName = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3';

/** Grey cards where the applications will be, so the page does not jump when they arrive. */
function CardsSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" className={gridClassName}>
      <span className="sr-only">{t('common.loading')}</span>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          aria-hidden="true"
          className="h-52 animate-pulse rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex gap-3">
            <span className="size-12 rounded-lg bg-slate-200 dark:bg-slate-800" />
            <span className="mt-2 h-4 flex-1 rounded bg-slate-200 dark:bg-slate-800" />
          </div>
          <div className="mt-5 h-3 w-3/4 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="mt-2 h-3 w-1/2 rounded bg-slate-200 dark:bg-slate-800" />
        </div>
      ))}
    </div>
  );
}

/**
 * The dashboard (`/`, page Applications): the Get started list for a new workspace, then every
 * application of the platform as a card with the workspace's state of it and the lifecycle's
 * allowed actions; subscribing, renewing and changing plan go through the plan dialog, cancelling
 * through a confirmation, a free trial starts at once.
 */
export function ApplicationsPage() {
  const { t, i18n } = useTranslation();
  const { formatDate } = useFormatters();
  const dashboard = useDashboardApplications();
  const send = useSubscriptionEvent();
  const startTrial = useStartTrial();
  const mayChange = useCan({ and: [changeSubscriptionsTag] });
  const [open, setOpen] = useState<OpenAction | null>(null);
  // The moment the cards count trial days from: when they were fetched.
  const now = dashboard.dataUpdatedAt || Date.now();
  const language = i18n.language;

  /** Closes a dialog and gives the focus back to its opener, or to the card's title when the opener is gone. */
  const close = () => {
    const opener = open?.opener;
    const application = open?.application;
    flushSync(() => setOpen(null));
    // The dialogs have no Radix trigger to return to: the page gives the focus back itself.
    if (opener?.isConnected) opener.focus();
    else if (application) document.getElementById(cardTitleId(application))?.focus();
  };

  const act = (application: DashboardApplication, event: WorkspaceSubscriptionEvent) => {
    if (event === 'startTrial') {
      void startTrial(application);
      return;
    }
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen({ application, event, opener });
  };

  let content: React.ReactNode;
  if (dashboard.isError && !dashboard.data) {
    content = (
      <LoadFailed
        error={dashboard.error}
        message={t('applications.loadFailed')}
        onRetry={() => void dashboard.refetch()}
      />
    );
  } else if (!dashboard.data) {
    content = <CardsSkeleton />;
  } else if (dashboard.data.data.length === 0) {
    content = (
      <EmptyState icon={<HomeIcon />} title={t('applications.empty')}>
        {t('applications.emptyHint')}
      </EmptyState>
    );
  } else {
    content = (
      <div className={gridClassName}>
        {dashboard.data.data.map((application) => (
          <ApplicationCard
            key={application.id}
            application={application}
            mayChange={mayChange}
            now={now}
            meta={dashboard.data.meta}
            onAction={(event) => act(application, event)}
          />
        ))}
      </div>
    );
  }

  const cancelling = open?.event === 'cancel' ? open.application : null;
  const cancellingName = cancelling ? pickLocalized(cancelling.name, language) : '';
  const cancellingTrial = cancelling?.card === 'freeTrial';
  const cancellingEnd = cancelling?.subscription?.endDate;
  const endsNow = Boolean(cancelling?.subscription?.graceEndsAt) || !cancellingEnd;

  return (
    <Page title={t('nav.dashboard')}>
      <div className="mx-auto max-w-7xl">
        <GetStarted />
        {/* The Get started list's last step leads here. */}
        <div id={applicationsSectionId} tabIndex={-1} className="scroll-mt-20 outline-none">
          {content}
        </div>
      </div>
      {open && open.event !== 'cancel' && (
        <PlanDialog
          application={open.application}
          event={open.event}
          activeLocations={dashboard.data?.meta.activeLocations ?? 0}
          onClose={close}
        />
      )}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(next) => {
          if (!next) close();
        }}
        title={
          cancellingTrial
            ? t('applications.cancel.trialTitle', { app: cancellingName })
            : t('applications.cancel.title', { app: cancellingName })
        }
        keepLabel={cancellingTrial ? t('applications.cancel.trialKeep') : t('applications.cancel.keep')}
        confirmLabel={
          cancellingTrial ? t('applications.cancel.trialConfirm') : t('applications.cancel.confirm')
        }
        onConfirm={async () => {
          if (!cancelling) return;
          // A refusal is shown inside the confirmation, in the reader's words.
          await send.mutateAsync({ applicationId: cancelling.id, event: 'cancel' });
          toast.success(t('applications.done.cancel', { app: cancellingName }));
        }}
      >
        {cancellingTrial
          ? t('applications.cancel.trialBody')
          : endsNow
            ? t('applications.cancel.bodyNow')
            : t('applications.cancel.bodyUntil', { date: formatDate(cancellingEnd ?? '') })}
      </ConfirmDialog>
    </Page>
  );
}
