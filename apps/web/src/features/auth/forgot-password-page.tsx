import { type ForgotPasswordInput, forgotPasswordInputSchema } from '@dukkan/contract';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PublicCard, PublicLayout, PublicSubmit } from '../../components/public-layout.tsx';
import { SentPage } from '../../components/success-panel.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Field } from '../../components/ui/field.tsx';
import { EmailInput } from '../../components/ui/input.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { resolveLanguage } from '../../i18n/languages.ts';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { withLoginReturn } from '../../lib/login-redirect.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useInvisibleCaptcha } from '../../lib/use-invisible-captcha.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { isCaptchaError } from '../captcha/captcha-errors.ts';

type ForgotPasswordForm = z.input<typeof forgotPasswordInputSchema>;

export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  useDocumentTitle(t('auth.forgotPassword.title'));
  const captcha = useInvisibleCaptcha('forgot_password');
  // Reached from a sign-in on its way somewhere (the portal): back to that sign-in.
  const [params] = useSearchParams();
  const loginLink = withLoginReturn('/login', params.get('from'));

  const form = useForm<ForgotPasswordForm, unknown, ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordInputSchema),
    defaultValues: { email: '' },
  });
  const { errors } = form.formState;

  const send = useMutation({
    mutationFn: async ({ email }: ForgotPasswordInput) => {
      const reCaptchaToken = await captcha.getToken();
      return apiRequest('/auth/forgot-password', {
        method: 'POST',
        body: { email, reCaptchaToken, language: resolveLanguage(i18n.language).code },
      });
    },
    onError: (error) => {
      captcha.reset();
      if (isApiError(error) && (error.code === 'NOT_FOUND' || error.name === 'NotFoundError')) {
        form.setError('email', { message: 'USER_NOT_FOUND' }, { shouldFocus: true });
      } else if (isCaptchaError(error)) {
        form.setError('root.server', { message: 'CAPTCHA_FAILED' });
      } else if (!applyValidationIssues(error, form.setError, ['email'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  if (send.isSuccess) {
    return (
      <SentPage
        title={t('auth.forgotPassword.successTitle')}
        body={t('auth.forgotPassword.successBody')}
        loginLink={loginLink}
      />
    );
  }

  const rootError = errors.root?.server?.message;
  return (
    <PublicLayout>
      <PublicCard title={t('auth.forgotPassword.title')} subtitle={t('auth.forgotPassword.subtitle')}>
        <form onSubmit={form.handleSubmit((input) => send.mutate(input))} noValidate className="space-y-5">
          {rootError && <Alert tone="error">{messageText(rootError)}</Alert>}
          <Field id="forgot-email" label={t('common.email')} error={errors.email?.message} required>
            {(control) => <EmailInput {...control} {...form.register('email')} />}
          </Field>
          <PublicSubmit pending={send.isPending} solvingCaptcha={captcha.isSolving}>
            {t('auth.forgotPassword.submit')}
          </PublicSubmit>
        </form>
        <p className="mt-6 text-center text-sm">
          <TextLink to={loginLink}>{t('common.backToLogin')}</TextLink>
        </p>
      </PublicCard>
    </PublicLayout>
  );
}
