import {
  type AcceptInviteResult,
  type InviteStatus,
  type SetProfileForm,
  setProfileFormSchema,
  workspaceInitials,
} from '@dukkan/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { NewPasswordFields } from '../../components/password-rules.tsx';
import { PublicLayout, PublicSubmit } from '../../components/public-layout.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { LinkBrokenIcon, MailCheckIcon } from '../../components/ui/icons.tsx';
import { Input, PhoneInput } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import type { LoginRedirectState } from '../../lib/login-redirect.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useInvisibleCaptcha } from '../../lib/use-invisible-captcha.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { isCaptchaError } from '../captcha/captcha-errors.ts';

/** The login page's navigation state: the invited address filled in, kept out of the URL. */
const loginState = (email: string | undefined): LoginRedirectState => (email ? { email } : {});

/** The token was refused: unknown, used up or malformed. */
function isInvalidToken(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.code === 'NOT_FOUND') return true;
  return error.code === 'VALIDATION' && (error.body?.issues ?? []).some((issue) => /token/i.test(issue.path));
}

function Card({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-900/5 sm:p-8 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none">
      {children}
    </div>
  );
}

/** The workspace the invitation is for: its initials and name. */
function WorkspaceMark({ name, as: Heading = 'p' }: { name: string; as?: 'h1' | 'p' }) {
  return (
    <div className="flex items-center gap-3">
      <Avatar fallback={workspaceInitials(name)} shape="rounded" size="lg" />
      <Heading
        className={
          Heading === 'h1'
            ? 'min-w-0 text-xl font-semibold tracking-tight break-words text-slate-900 sm:text-2xl dark:text-white'
            : 'min-w-0 font-semibold break-words text-slate-700 dark:text-slate-200'
        }
      >
        {name}
      </Heading>
    </div>
  );
}

function InvalidInvite() {
  const { t } = useTranslation();
  return (
    <Card>
      <div className="flex flex-col items-center py-2 text-center">
        <span className="grid size-14 place-items-center rounded-full bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-400">
          <LinkBrokenIcon className="size-7" />
        </span>
        <h1 className="mt-5 text-xl font-semibold text-red-600 dark:text-red-400">
          {t('acceptInvite.invalid')}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('acceptInvite.invalidHint')}</p>
        <TextLink to="/login" className="mt-6">
          {t('common.backToLogin')}
        </TextLink>
      </div>
    </Card>
  );
}

function ProfileForm({
  passwordResetToken,
  workspaceName,
  email,
}: {
  passwordResetToken: string;
  workspaceName: string;
  email: string;
}) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  const navigate = useNavigate();
  const captcha = useInvisibleCaptcha('set_profile');
  const [tokenRefused, setTokenRefused] = useState(false);
  const form = useForm<SetProfileForm>({
    resolver: zodResolver(setProfileFormSchema),
    defaultValues: { name: '', phone: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: async ({ name, phone, password }: SetProfileForm) => {
      const reCaptchaToken = await captcha.getToken();
      return apiRequest('/auth/set-profile', {
        method: 'POST',
        body: { name, phone, password, reCaptchaToken, passwordResetToken },
      });
    },
    onSuccess: () => {
      toast.success(t('acceptInvite.profileSaved'));
      void navigate('/login', { replace: true, state: loginState(email) });
    },
    onError: (error) => {
      // Captcha tokens are single-use: the next attempt needs a fresh one (spec §4).
      captcha.reset();
      if (isInvalidToken(error)) setTokenRefused(true);
      else if (isApiError(error) && error.code === 'DB' && error.body?.target === 'phone') {
        form.setError('phone', { message: 'PHONE_ALREADY_EXISTS' }, { shouldFocus: true });
      } else if (isCaptchaError(error)) form.setError('root.server', { message: 'CAPTCHA_FAILED' });
      else if (!applyValidationIssues(error, form.setError, ['name', 'phone', 'password'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  if (tokenRefused) return <InvalidInvite />;
  const rootError = errors.root?.server?.message;

  return (
    <Card>
      <WorkspaceMark name={workspaceName} />
      <h1 className="mt-6 text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl dark:text-white">
        {t('acceptInvite.thanksTitle')}
      </h1>
      <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{t('acceptInvite.completeData')}</p>
      <form onSubmit={form.handleSubmit((input) => save.mutate(input))} noValidate className="mt-6 space-y-5">
        {rootError && <Alert tone="error">{messageText(rootError)}</Alert>}
        <Field id="profile-name" label={t('acceptInvite.name')} error={errors.name?.message} required>
          {(control) => <Input {...control} {...form.register('name')} autoComplete="name" />}
        </Field>
        <Field id="profile-phone" label={t('acceptInvite.phone')} error={errors.phone?.message} required>
          {(control) => <PhoneInput {...control} {...form.register('phone')} />}
        </Field>
        <NewPasswordFields
          form={form}
          names={['password', 'confirmPassword']}
          ids={['profile-password', 'profile-confirm-password']}
          labels={[t('acceptInvite.password'), t('acceptInvite.confirmPassword')]}
        />
        <PublicSubmit pending={save.isPending} solvingCaptcha={captcha.isSolving}>
          {t('acceptInvite.updateProfile')}
        </PublicSubmit>
      </form>
    </Card>
  );
}

function AcceptInvite({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const [accepted, setAccepted] = useState<AcceptInviteResult | null>(null);
  const status = useQuery({
    queryKey: queryKeys.inviteStatus(token),
    queryFn: ({ signal }) => apiRequest<InviteStatus>('/auth/invite-status', { query: { token }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const accept = useMutation({
    mutationFn: () =>
      apiRequest<AcceptInviteResult>('/workspaces/users/accept-invite', { method: 'POST', body: { token } }),
    onSuccess: (result) => setAccepted(result),
    onError: (error) => {
      if (!isInvalidToken(error)) toast.error(describeApiError(error, t, i18n.language));
    },
  });

  if (status.isPending) {
    return (
      <Card>
        <div role="status" className="grid place-items-center py-10 text-brand-600 dark:text-brand-400">
          <Spinner className="size-7" />
          <span className="sr-only">{t('common.loading')}</span>
        </div>
      </Card>
    );
  }
  if (status.isError || isInvalidToken(accept.error)) {
    if (isInvalidToken(status.error) || isInvalidToken(accept.error)) return <InvalidInvite />;
    return (
      <Card>
        <div role="alert" className="text-center">
          <p className="text-lg font-semibold">{t('errors.somethingWentWrong')}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('errors.tryAgainLater')}</p>
          <Button className="mt-6" variant="secondary" onClick={() => void status.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      </Card>
    );
  }

  const invite = status.data;
  const workspaceName = accepted?.workspace.name ?? invite.workspace.name;
  const passwordResetToken = accepted?.passwordResetToken ?? invite.user.passwordResetToken ?? null;

  // Accepted just now, or earlier by someone who has not completed their profile yet.
  if ((accepted || invite.status === 'accepted') && passwordResetToken) {
    return (
      <ProfileForm
        passwordResetToken={passwordResetToken}
        workspaceName={workspaceName}
        email={invite.user.email}
      />
    );
  }

  if (accepted) {
    // The person already had an account: they join with the password they have.
    return (
      <Card>
        <WorkspaceMark name={workspaceName} as="h1" />
        <div
          role="status"
          className="mt-6 flex items-start gap-3 rounded-xl bg-emerald-50 p-4 text-emerald-900 dark:bg-emerald-500/10 dark:text-emerald-200"
        >
          <MailCheckIcon className="mt-0.5 size-5 shrink-0" />
          <div>
            <p className="font-semibold">{t('acceptInvite.joinedTitle', { workspace: workspaceName })}</p>
            <p className="mt-1 text-sm">{t('acceptInvite.joinedBody')}</p>
          </div>
        </div>
        <Link
          to="/login"
          state={loginState(invite.user.email)}
          className={buttonClassName('primary', 'md', 'mt-6 w-full')}
        >
          {t('acceptInvite.goToLogin')}
        </Link>
      </Card>
    );
  }

  if (invite.status !== 'pending') {
    return (
      <Card>
        <WorkspaceMark name={workspaceName} as="h1" />
        <div className="mt-6 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
          <p className="font-semibold text-slate-900 dark:text-white">{t('acceptInvite.alreadyAccepted')}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('acceptInvite.expired')}</p>
        </div>
        <p className="mt-6 text-center text-sm">
          <TextLink to="/login" state={loginState(invite.user.email)}>
            {t('acceptInvite.goToLogin')}
          </TextLink>
        </p>
      </Card>
    );
  }

  return (
    <Card>
      <WorkspaceMark name={workspaceName} as="h1" />
      <p className="mt-6 text-slate-700 dark:text-slate-300">
        {t('acceptInvite.invited', { workspace: workspaceName })}
      </p>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('acceptInvite.invitedHint')}</p>
      <Button className="mt-6 w-full" loading={accept.isPending} onClick={() => accept.mutate()}>
        {t('acceptInvite.accept')}
      </Button>
    </Card>
  );
}

/** `/accept-invite?token=…`: joining a workspace, then completing the profile (spec §2, §4). */
export function AcceptInvitePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('acceptInvite.documentTitle'));
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Navigate to="/" replace />;
  return (
    <PublicLayout>
      <AcceptInvite key={token} token={token} />
    </PublicLayout>
  );
}
