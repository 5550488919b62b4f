import {
  type DashboardApplication,
  type WorkspaceSubscriptionEvent,
  type WorkspaceSummary,
  workspaceInitials,
} from '@dukkan/contract';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useCan, useWorkspace } from '../../lib/workspace-context.tsx';
import { ApplicationCard } from '../applications/application-card.tsx';
import { PlanDialog, type PlanEvent } from '../applications/plan-dialog.tsx';
import {
  changeSubscriptionsTag,
  useDashboardApplications,
  useStartTrial,
} from '../applications/use-applications.ts';
import { installedOauthApplicationQuery } from './use-oauth-portal.ts';

/**
 * What Access Denied offers from the card: what gives the workspace the application. Changing
 * plan or cancelling belongs to the dashboard, not to a sign-in.
 */
const portalEvents: readonly WorkspaceSubscriptionEvent[] = ['startTrial', 'request', 'renew'];

const lineClassName = 'mt-2 text-sm text-slate-600 dark:text-slate-400';

/** The selected workspace's card of the application, with the actions that give it access. */
function Offer({
  application,
  now,
  activeLocations,
  appName,
  onChange,
}: {
  application: DashboardApplication;
  now: number;
  activeLocations: number;
  appName: string;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const { selectedWorkspace } = useWorkspace();
  const startTrial = useStartTrial();
  const [planEvent, setPlanEvent] = useState<PlanEvent | null>(null);
  const offered = {
    ...application,
    allowedEvents: application.allowedEvents.filter((event) => portalEvents.includes(event)),
  };
  const waiting = application.card === 'waitingForActivation';

  const act = (event: WorkspaceSubscriptionEvent) => {
    if (event === 'startTrial') {
      void startTrial(application).then((started) => {
        if (started) onChange();
      });
    } else if (event === 'request' || event === 'renew') setPlanEvent(event);
  };

  return (
    <div className="mt-5 w-full text-start">
      <p className={lineClassName}>
        {waiting ? (
          t('oauth.help.waiting', { app: appName })
        ) : (
          // The workspace's name set apart, so a Latin name keeps its place in an Arabic line.
          <Trans
            i18nKey="oauth.help.subscribe"
            values={{ app: appName, workspace: selectedWorkspace?.name ?? '' }}
            components={{ name: <bdi /> }}
          />
        )}
      </p>
      <div className="mt-3">
        <ApplicationCard application={offered} mayChange now={now} onAction={act} />
      </div>
      {planEvent && (
        <PlanDialog
          application={application}
          event={planEvent}
          activeLocations={activeLocations}
          onClose={() => {
            setPlanEvent(null);
            onChange();
          }}
        />
      )}
    </div>
  );
}

/** The person's other workspaces where they may use the application: one button each. */
function OtherWorkspaces({
  allowed,
  appName,
  onSwitch,
}: {
  allowed: WorkspaceSummary[];
  appName: string;
  onSwitch: (workspaceId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="mt-5 w-full text-start">
      <p className={lineClassName}>{t('oauth.help.otherWorkspaces', { app: appName })}</p>
      <ul className="mt-3 space-y-2">
        {allowed.map((workspace) => (
          <li
            key={workspace.id}
            className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
          >
            <Avatar src={workspace.logo} fallback={workspaceInitials(workspace.name)} shape="rounded" />
            <span className="min-w-0 flex-1 truncate font-semibold text-slate-900 dark:text-slate-100">
              {workspace.name}
            </span>
            <Button size="sm" onClick={() => onSwitch(workspace.id)}>
              <Trans
                i18nKey="oauth.help.continueIn"
                values={{ workspace: workspace.name }}
                components={{ name: <bdi /> }}
              />
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Below the spec's Access Denied texts: what the person in front of the portal can do. A member
 * who may subscribe in the selected workspace gets the application's card with the actions that
 * give access; a member of other workspaces where the application is theirs may continue there;
 * someone who can do neither is told to contact their administrator (spec §2, verbatim).
 * Loaded only on Access Denied, with the signed-in screens' texts the card and dialog use.
 */
export function PortalHelp({
  clientId,
  appName,
  onChange,
  onSwitch,
}: {
  clientId: string;
  appName: string;
  /** A subscription changed from here: the portal checks the access again. */
  onChange: () => void;
  onSwitch: (workspaceId: string) => void;
}) {
  const { t } = useTranslation();
  const { workspaces, selectedWorkspace } = useWorkspace();
  const maySubscribe = useCan({ and: ['viewApplications', changeSubscriptionsTag] });
  const dashboard = useDashboardApplications();
  const others = workspaces.filter((workspace) => workspace.id !== selectedWorkspace?.id);
  const checks = useQueries({
    queries: others.map((workspace) => installedOauthApplicationQuery(clientId, workspace.id)),
  });

  if ((maySubscribe && dashboard.isPending) || checks.some((check) => check.isPending)) {
    return (
      <div role="status" className="mt-4 text-brand-600 dark:text-brand-400">
        <Spinner className="size-5" />
        <span className="sr-only">{t('common.loading')}</span>
      </div>
    );
  }
  const application = maySubscribe
    ? dashboard.data?.data.find((candidate) => candidate.clientId === clientId)
    : undefined;
  const mayOffer =
    application !== undefined &&
    (application.card === 'waitingForActivation' ||
      application.allowedEvents.some((event) => portalEvents.includes(event)));
  const allowed = others.filter((_, index) => checks[index]?.isSuccess);
  return (
    <>
      {!mayOffer && allowed.length === 0 && (
        <p className={lineClassName}>{t('oauth.contactAdministrator')}</p>
      )}
      {mayOffer && (
        <Offer
          application={application}
          now={dashboard.dataUpdatedAt}
          activeLocations={dashboard.data?.meta.activeLocations ?? 0}
          appName={appName}
          onChange={onChange}
        />
      )}
      {allowed.length > 0 && <OtherWorkspaces allowed={allowed} appName={appName} onSwitch={onSwitch} />}
    </>
  );
}
