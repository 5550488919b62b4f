import {
  applicationSignInNeedsSecondFactor,
  nameInitials,
  pickLocalized,
  workspaceInitials,
} from '@dukkan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PublicLayout } from '../../components/public-layout.tsx';
import { AlertIcon } from '../../components/ui/action-icons.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { LockIcon } from '../../components/ui/icons.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { loadSignedInTranslations } from '../../i18n/i18n.ts';
import { isApiError } from '../../lib/api-client.ts';
import { cn } from '../../lib/class-names.ts';
import { signOut } from '../../lib/current-user.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { leaveApp } from '../../lib/leave-app.ts';
import { loginRedirectFor } from '../../lib/login-redirect.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import {
  authorizeClientSide,
  isNotFound,
  oauthToastDescription,
  useInstalledOauthApplication,
  useOauthApplication,
} from './use-oauth-portal.ts';

/**
 * What Access Denied offers (the application's card, other workspaces): with the signed-in
 * screens' texts, downloaded only when the portal refuses.
 */
const PortalHelp = lazy(() =>
  Promise.all([import('./portal-help.tsx'), loadSignedInTranslations()]).then(([module]) => ({
    default: module.PortalHelp,
  })),
);

/**
 * The second step, for a sign-in that needs a second factor the session has not used: with the
 * signed-in screens' texts, downloaded only then.
 */
const PortalStepUp = lazy(() =>
  Promise.all([import('./portal-step-up.tsx'), loadSignedInTranslations()]).then(([module]) => ({
    default: module.PortalStepUp,
  })),
);

/** One toast for the portal's refusals: shown twice (a re-render, a second press) it stays one. */
const refusalToast = { id: 'oauth-refusal', position: 'top-center' } as const;

/**
 * The address carries the description of a refused request, so anyone can write one: keep it to a
 * sentence's length so a crafted link cannot fill the screen with its own text.
 */
const descriptionLimit = 300;

function PortalCard({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-900/5 sm:p-8 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none">
      {children}
    </div>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <PortalCard>
      <div role="status" className="grid place-items-center py-10 text-brand-600 dark:text-brand-400">
        <Spinner className="size-7" />
        <span className="sr-only">{t('common.loading')}</span>
      </div>
    </PortalCard>
  );
}

/** A part of the card whose code (and texts) are still downloading: a small spinner, named. */
function ChunkLoading({ className }: { className: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={cn(className, 'text-brand-600 dark:text-brand-400')}>
      <Spinner className="size-5" />
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  );
}

/**
 * A state the sign-in cannot go on from (or not yet): an icon, a heading, a line or two, what the
 * person can do about it, and the way home.
 */
function Stopped({
  icon,
  title,
  lines,
  children,
}: {
  icon: ReactNode;
  title: string;
  lines: string[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <PortalCard>
      <div className="flex flex-col items-center py-2 text-center">
        <div role="alert" className="flex flex-col items-center">
          <span className="grid size-14 place-items-center rounded-full bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-400">
            {icon}
          </span>
          <h1 className="mt-5 text-xl font-semibold text-slate-900 dark:text-white">{title}</h1>
          {lines.map((line) => (
            <p key={line} className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              {line}
            </p>
          ))}
        </div>
        {children}
        <Link to="/" className={buttonClassName('secondary', 'md', 'mt-6')}>
          {t('common.goHome')}
        </Link>
      </div>
    </PortalCard>
  );
}

function SomethingWentWrong() {
  const { t } = useTranslation();
  return (
    <Stopped
      icon={<AlertIcon className="size-7" />}
      title={t('errors.somethingWentWrong')}
      lines={[t('errors.tryAgainLater')]}
    />
  );
}

function AccessDenied({
  clientId,
  application,
  onChange,
  onSwitch,
}: {
  clientId: string;
  application: string;
  onChange: () => void;
  onSwitch: (workspaceId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stopped
      icon={<LockIcon className="size-7" />}
      title={t('oauth.accessDenied')}
      lines={[t('oauth.notAuthorized', { app: application })]}
    >
      <Suspense fallback={<ChunkLoading className="mt-4" />}>
        <PortalHelp clientId={clientId} appName={application} onChange={onChange} onSwitch={onSwitch} />
      </Suspense>
    </Stopped>
  );
}

/** The authorization server sent the browser back with `error`: its description, then no way on. */
function RefusedRequest({ description }: { description: string | null }) {
  useEffect(() => {
    if (description) toast.error(description.slice(0, descriptionLimit), refusalToast);
  }, [description]);
  return <SomethingWentWrong />;
}

function Consent({
  application,
  logo,
  workspaceId,
  params,
  autoContinue,
}: {
  application: string;
  logo: string | null;
  workspaceId: string;
  params: URLSearchParams;
  /** The person already acted on Access Denied to get here: the sign-in goes on by itself. */
  autoContinue: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { user, selectedWorkspace } = useWorkspace();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  // A ref, not the mutation's state: a second press in the same frame already finds it set.
  const busy = useRef(false);
  // A second factor the session has not used: asked for first when the workspace requires one or
  // the application asks for one (`acr_values`), or once Login is refused for the lack of one.
  const [refusedForFactor, setRefusedForFactor] = useState(false);
  const stepUp =
    refusedForFactor ||
    applicationSignInNeedsSecondFactor({
      factors: user.sessionFactors,
      workspaceRequires: selectedWorkspace?.requireSecondFactor === true,
      acrValues: params.get('acr_values'),
    });

  const login = useMutation({
    mutationFn: () => authorizeClientSide(params, workspaceId, i18n.language),
    // The page stays busy until the browser has left it.
    onSuccess: ({ redirect }) => leaveApp(redirect),
    onError: (error) => {
      busy.current = false;
      if (isApiError(error) && error.code === 'SECOND_FACTOR_REQUIRED') {
        setRefusedForFactor(true);
        return;
      }
      const description = oauthToastDescription(error);
      if (description) toast.error(description, refusalToast);
      // The session ended meanwhile: the gate sends the user to sign in and back here.
      else if (isApiError(error) && error.statusCode === 401)
        queryClient.setQueryData(queryKeys.currentUser, null);
      else toast.error(describeApiError(error, t, i18n.language));
    },
  });

  const switchAccount = useMutation({
    mutationFn: () => signOut(queryClient),
    onSuccess: () => {
      const target = loginRedirectFor(location);
      void navigate(target.to, { state: target.state, replace: true });
    },
  });

  const run = (action: { mutate: () => void }) => {
    if (busy.current) return;
    busy.current = true;
    action.mutate();
  };
  const leaving = login.isPending || login.isSuccess;

  // Once, on arriving allowed after a trial started or a workspace was chosen on Access Denied.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the arrival counts
  useEffect(() => {
    if (autoContinue && !stepUp) run(login);
  }, []);

  // Busy, the button was disabled and lost the focus: a refused Login gives it back, to try again.
  const loginButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (login.isError) loginButton.current?.focus();
  }, [login.isError]);

  return (
    <PortalCard>
      <div className="flex items-center justify-center gap-3">
        <Avatar src={logo} fallback={nameInitials(application)} size="lg" shape="rounded" />
        <span
          aria-hidden="true"
          className="w-8 border-t-2 border-dashed border-slate-300 dark:border-slate-600"
        />
        <Avatar src={user.profilePicture} fallback={nameInitials(user.name)} size="lg" />
      </div>
      <h1 className="mt-6 text-center text-xl font-semibold tracking-tight break-words text-slate-900 sm:text-2xl dark:text-white">
        {t('oauth.aboutToLogin', { app: application })}
      </h1>
      <p className="mt-2 text-center text-sm text-slate-600 dark:text-slate-400">
        {t('oauth.signedInAs', { name: user.name })}
        <span aria-hidden="true"> · </span>
        {/* Wraps inside the address only when the address alone is wider than the card. */}
        <bdi className="[overflow-wrap:anywhere]">{user.email}</bdi>
      </p>
      {selectedWorkspace && (
        <div className="mt-6 flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700">
          <Avatar
            src={selectedWorkspace.logo}
            fallback={workspaceInitials(selectedWorkspace.name)}
            shape="rounded"
          />
          <dl className="min-w-0">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{t('oauth.workspace')}</dt>
            <dd className="truncate font-semibold text-slate-900 dark:text-slate-100">
              {selectedWorkspace.name}
            </dd>
          </dl>
        </div>
      )}
      {stepUp && (
        <div className="mt-6 border-t border-slate-200 pt-6 dark:border-slate-700">
          <Suspense fallback={<ChunkLoading className="grid place-items-center" />}>
            <PortalStepUp
              user={user}
              application={application}
              onSteppedUp={() => {
                // The stepped-up session is the current user's now: the sign-in goes on.
                setRefusedForFactor(false);
                run(login);
              }}
            />
          </Suspense>
        </div>
      )}
      <div className={cn('mt-6 grid gap-3', stepUp ? 'grid-cols-1' : 'grid-cols-2')}>
        <Button
          variant="secondary"
          loading={switchAccount.isPending || switchAccount.isSuccess}
          disabled={leaving}
          onClick={() => run(switchAccount)}
        >
          {t('oauth.switchAccount')}
        </Button>
        {/* The page asks one question: focused, Enter answers it. */}
        {!stepUp && (
          <Button
            ref={loginButton}
            autoFocus
            loading={leaving}
            disabled={switchAccount.isPending || switchAccount.isSuccess}
            onClick={() => run(login)}
          >
            {t('oauth.login')}
          </Button>
        )}
      </div>
    </PortalCard>
  );
}

function Portal({ clientId, params }: { clientId: string; params: URLSearchParams }) {
  const { i18n } = useTranslation();
  const { selectedWorkspace, selectWorkspace } = useWorkspace();
  const queryClient = useQueryClient();
  const workspaceId = selectedWorkspace?.id ?? null;
  // The person acted on Access Denied (started a trial, subscribed, chose another workspace): the
  // access is checked again, while waiting for an activation too, and once allowed the sign-in
  // goes on without another press.
  const [acted, setActed] = useState(false);
  const application = useOauthApplication(clientId);
  const installed = useInstalledOauthApplication(clientId, workspaceId, { poll: acted });

  // spec §2: an unknown client application is the not-found page's.
  if (isNotFound(application.error)) return <Navigate to="/404" replace />;
  if (application.isError) return <SomethingWentWrong />;
  if (application.isPending || (workspaceId !== null && installed.isPending)) return <Loading />;

  const name = pickLocalized(application.data.localizedName, i18n.language);
  // No workspace at all: no workspace has installed it for this user either.
  if (workspaceId === null || isNotFound(installed.error)) {
    return (
      <AccessDenied
        clientId={clientId}
        application={name}
        onChange={() => {
          setActed(true);
          if (workspaceId !== null)
            void queryClient.invalidateQueries({
              queryKey: queryKeys.installedOauthApplication(workspaceId, clientId),
            });
        }}
        onSwitch={(id) => {
          setActed(true);
          selectWorkspace(id);
        }}
      />
    );
  }
  if (installed.isError) return <SomethingWentWrong />;
  return (
    <Consent
      application={name}
      logo={application.data.logo}
      workspaceId={workspaceId}
      params={params}
      autoContinue={acted}
    />
  );
}

/**
 * `/authenticate`: the sign-in portal of the platform's client applications (spec §2, §7, §8).
 * Behind the session gate, outside the shell. The authorization server sends the browser here
 * with the client's parameters and its `interaction`, or with `error` when the request was refused.
 */
export function AuthenticatePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('oauth.documentTitle'));
  const [params] = useSearchParams();
  const error = params.get('error');
  const clientId = params.get('client_id');

  let content: ReactNode;
  if (error !== null) content = <RefusedRequest description={params.get('error_description')} />;
  else if (!clientId) return <Navigate to="/404" replace />;
  else content = <Portal key={clientId} clientId={clientId} params={params} />;
  return <PublicLayout>{content}</PublicLayout>;
}
