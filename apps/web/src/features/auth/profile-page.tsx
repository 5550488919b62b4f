import {
  type ChangePasswordForm,
  type CurrentUser,
  changePasswordFormSchema,
  type SignInEvent,
  type UpdateProfileInput,
  updateProfileInputSchema,
} from '@dukkan/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { LoadFailed, Page } from '../../components/page.tsx';
import { NewPasswordFields } from '../../components/password-rules.tsx';
import { SignInList } from '../../components/sign-in-list.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input, PhoneInput } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx';
import { resolveLanguage } from '../../i18n/languages.ts';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { leaveWithoutAsking } from '../../lib/leave-guard.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { ProfilePicture } from './profile-picture.tsx';
import { SecuritySection } from './security-section.tsx';
import { SessionsSection } from './sessions-section.tsx';

function Section({
  id,
  title,
  subtitle,
  children,
}: {
  id?: string;
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    // A section an address names (`/profile#security`) takes the focus: see ProfilePage.
    <Card id={id} tabIndex={id ? -1 : undefined} className="scroll-mt-20 p-6 outline-none">
      <h2 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

type ProfileForm = z.input<typeof updateProfileInputSchema>;

function ProfileDetailsForm({ user }: { user: CurrentUser }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<ProfileForm, unknown, UpdateProfileInput>({
    resolver: zodResolver(updateProfileInputSchema),
    defaultValues: { name: user.name, phone: user.phone ?? '' },
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (input: UpdateProfileInput) =>
      apiRequest<CurrentUser>('/auth/profile', {
        method: 'PATCH',
        // The interface language is kept on the account so mail arrives in it too.
        body: { ...input, language: resolveLanguage(i18n.language).code },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      form.reset({ name: updated.name, phone: updated.phone ?? '' });
      toast.success(t('profile.saved'));
    },
    onError: (error) => {
      if (!applyValidationIssues(error, form.setError, ['name', 'phone'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  return (
    <form onSubmit={form.handleSubmit((input) => save.mutate(input))} noValidate className="space-y-5">
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <Field id="profile-email" label={t('profile.email')}>
        {(control) => (
          <Input {...control} value={user.email} readOnly disabled dir="ltr" className="text-start" />
        )}
      </Field>
      <Field id="profile-name" label={t('profile.name')} error={errors.name?.message} required>
        {(control) => <Input {...control} {...form.register('name')} autoComplete="name" />}
      </Field>
      <Field id="profile-phone" label={t('profile.phone')} error={errors.phone?.message} showOptional>
        {(control) => <PhoneInput {...control} {...form.register('phone')} />}
      </Field>
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending}>
          {t('profile.save')}
        </Button>
      </div>
    </form>
  );
}

const emptyPasswords: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

function ChangePasswordSection() {
  const { t, i18n } = useTranslation();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: emptyPasswords,
  });
  const { errors } = form.formState;
  const navigate = useNavigate();

  const change = useMutation({
    mutationFn: ({ currentPassword, newPassword }: ChangePasswordForm) =>
      apiRequest('/auth/change-password', { method: 'POST', body: { currentPassword, newPassword } }),
    onSuccess: () => {
      form.reset(emptyPasswords);
      toast.success(t('profile.passwordChanged'));
    },
    onError: (error) => {
      // Too many wrong current passwords: the server ended this session.
      if (isApiError(error) && error.code === 'UNAUTHORIZED') {
        toast.error(t('profile.signedOutAfterWrongPasswords'));
        leaveWithoutAsking(() => void navigate('/logout', { replace: true }));
        return;
      }
      if (!applyValidationIssues(error, form.setError, ['currentPassword', 'newPassword'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  return (
    <form onSubmit={form.handleSubmit((input) => change.mutate(input))} noValidate className="space-y-5">
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <Field
        id="current-password"
        label={t('profile.currentPassword')}
        error={errors.currentPassword?.message}
        required
      >
        {(control) => (
          <PasswordInput {...control} {...form.register('currentPassword')} autoComplete="current-password" />
        )}
      </Field>
      <NewPasswordFields
        form={form}
        names={['newPassword', 'confirmPassword']}
        ids={['new-password', 'confirm-new-password']}
        labels={[t('profile.newPassword'), t('profile.confirmPassword')]}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={change.isPending}>
          {t('profile.changePassword')}
        </Button>
      </div>
    </form>
  );
}

/** The person's own latest sign-ins (`GET auth/sign-ins`): when, from where, on what, and whether it worked. */
function RecentSignIns() {
  const { t } = useTranslation();
  const signIns = useQuery({
    queryKey: queryKeys.ownSignIns,
    queryFn: ({ signal }) => apiRequest<SignInEvent[]>('/auth/sign-ins', { signal }),
  });
  if (signIns.isError) {
    return (
      <LoadFailed
        error={signIns.error}
        message={t('signIns.loadFailed')}
        onRetry={() => void signIns.refetch()}
      />
    );
  }
  if (!signIns.data) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {t('common.loading')}
      </p>
    );
  }
  if (signIns.data.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">{t('signIns.empty')}</p>;
  }
  return (
    <div className="-mx-6 -mb-6 border-t border-slate-200 dark:border-slate-800">
      <SignInList events={signIns.data} />
    </div>
  );
}

/**
 * `/profile`: picture, name and phone, a password change (spec §2), second factors, open sessions, and the
 * person's recent sign-ins.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useWorkspace();
  // `/profile#security` (where a workspace that requires a second factor sends a member without
  // one): the router does not scroll to a fragment, so the section is brought into view and
  // focused here, once the page has rendered it.
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const section = document.getElementById(decodeURIComponent(hash.slice(1)));
    section?.scrollIntoView?.({ block: 'start' });
    section?.focus({ preventScroll: true });
  }, [hash]);
  return (
    <Page title={t('nav.profile')}>
      <div className="mx-auto grid max-w-5xl gap-6 xl:grid-cols-2 xl:items-start">
        <Section title={t('profile.detailsTitle')} subtitle={t('profile.detailsSubtitle')}>
          <div className="space-y-5">
            <ProfilePicture user={user} />
            <ProfileDetailsForm user={user} />
          </div>
        </Section>
        <Section title={t('profile.passwordTitle')} subtitle={t('profile.passwordSubtitle')}>
          <ChangePasswordSection />
        </Section>
        <Section id="security" title={t('security.title')} subtitle={t('security.subtitle')}>
          <SecuritySection />
        </Section>
        <Section title={t('sessions.title')} subtitle={t('sessions.subtitle')}>
          <SessionsSection />
        </Section>
        <div className="xl:col-span-2">
          <Section title={t('profile.signInsTitle')} subtitle={t('profile.signInsSubtitle')}>
            <RecentSignIns />
          </Section>
        </div>
      </div>
    </Page>
  );
}
