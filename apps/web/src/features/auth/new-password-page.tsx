import { type NewPasswordForm, newPasswordFormSchema } from '@dukkan/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { NewPasswordFields } from '../../components/password-rules.tsx';
import { PublicCard, PublicLayout, PublicSubmit } from '../../components/public-layout.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { LinkBrokenIcon } from '../../components/ui/icons.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <Alert tone="error" className="flex items-start gap-3">
      <LinkBrokenIcon className="mt-0.5 size-5 shrink-0" />
      <div>
        <p className="font-semibold">{t('auth.newPassword.invalidLink')}</p>
        <TextLink
          to="/forgot-password"
          className="mt-1 inline-block text-red-800 underline dark:text-red-200"
        >
          {t('auth.newPassword.requestNewLink')}
        </TextLink>
      </div>
    </Alert>
  );
}

/** `/reset-password` and `/set-password`: a new password for the mailed token (spec §2). */
export function NewPasswordPage({ mode }: { mode: 'reset' | 'set' }) {
  const { t, i18n } = useTranslation();
  const title = mode === 'set' ? t('auth.newPassword.setTitle') : t('auth.newPassword.resetTitle');
  useDocumentTitle(title);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [tokenRefused, setTokenRefused] = useState(false);

  const form = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const save = useMutation({
    mutationFn: ({ password }: NewPasswordForm) =>
      apiRequest('/auth/reset-password', { method: 'POST', body: { password, token } }),
    onSuccess: () => {
      toast.success(mode === 'set' ? t('auth.newPassword.setDone') : t('auth.newPassword.resetDone'));
      void navigate('/login', { replace: true });
    },
    onError: (error) => {
      const issues = isApiError(error) && error.code === 'VALIDATION' ? (error.body?.issues ?? []) : [];
      if (issues.some((issue) => issue.path === 'token')) setTokenRefused(true);
      else if (!applyValidationIssues(error, form.setError, ['password'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  return (
    <PublicLayout>
      <PublicCard
        title={title}
        subtitle={token && !tokenRefused ? t('auth.newPassword.subtitle') : undefined}
      >
        {!token || tokenRefused ? (
          <div className="space-y-6">
            <InvalidLink />
            <p className="text-center text-sm">
              <TextLink to="/login">{t('common.backToLogin')}</TextLink>
            </p>
          </div>
        ) : (
          <form onSubmit={form.handleSubmit((input) => save.mutate(input))} noValidate className="space-y-5">
            <NewPasswordFields
              form={form}
              names={['password', 'confirmPassword']}
              ids={['new-password', 'confirm-password']}
              labels={[t('auth.newPassword.password'), t('auth.newPassword.confirmPassword')]}
            />
            <PublicSubmit pending={save.isPending}>
              {mode === 'set' ? t('auth.newPassword.submitSet') : t('auth.newPassword.submitReset')}
            </PublicSubmit>
          </form>
        )}
      </PublicCard>
    </PublicLayout>
  );
}
