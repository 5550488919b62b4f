import {
  businessCategories,
  type RequestAccessInput,
  referralSources,
  requestAccessInputSchema,
} from '@dukkan/contract';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PublicCard, PublicLayout, PublicSubmit } from '../../components/public-layout.tsx';
import { SentPage } from '../../components/success-panel.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Field } from '../../components/ui/field.tsx';
import { EmailInput, Input, PhoneInput } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { resolveLanguage } from '../../i18n/languages.ts';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useInvisibleCaptcha } from '../../lib/use-invisible-captcha.ts';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { isCaptchaError } from '../captcha/captcha-errors.ts';

type RequestAccessForm = z.input<typeof requestAccessInputSchema>;

const formFields = [
  'name',
  'email',
  'phone',
  'companyName',
  'companyWebsite',
  'businessCategory',
  'howDidYouHearAboutUs',
] as const;

export function RequestAccessPage() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  useDocumentTitle(t('auth.requestAccess.title'));
  const captcha = useInvisibleCaptcha('request_access');

  const form = useForm<RequestAccessForm, unknown, RequestAccessInput>({
    resolver: zodResolver(requestAccessInputSchema),
    defaultValues: { name: '', email: '', phone: '', companyName: '', companyWebsite: '' },
  });
  const { errors } = form.formState;

  const send = useMutation({
    mutationFn: async (input: RequestAccessInput) => {
      const reCaptchaToken = await captcha.getToken();
      return apiRequest('/auth/request-for-access', {
        method: 'POST',
        body: { ...input, reCaptchaToken, language: resolveLanguage(i18n.language).code },
      });
    },
    onError: (error) => {
      // Tokens are single-use: whatever went wrong, the next attempt needs a fresh one (spec §4).
      captcha.reset();
      if (isApiError(error) && error.code === 'DB' && error.body?.target === 'email') {
        form.setError('email', { message: 'EMAIL_ALREADY_EXISTS' }, { shouldFocus: true });
      } else if (isApiError(error) && error.code === 'DB' && error.body?.target === 'phone') {
        form.setError('phone', { message: 'PHONE_ALREADY_EXISTS' }, { shouldFocus: true });
      } else if (isCaptchaError(error)) {
        form.setError('root.server', { message: 'CAPTCHA_FAILED' });
      } else if (!applyValidationIssues(error, form.setError, formFields)) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  if (send.isSuccess) {
    return (
      <SentPage title={t('auth.requestAccess.successTitle')} body={t('auth.requestAccess.successBody')} />
    );
  }

  const rootError = errors.root?.server?.message;

  return (
    <PublicLayout wide>
      <PublicCard title={t('auth.requestAccess.title')} subtitle={t('auth.requestAccess.subtitle')}>
        <form onSubmit={form.handleSubmit((input) => send.mutate(input))} noValidate className="space-y-5">
          {rootError && <Alert tone="error">{messageText(rootError)}</Alert>}
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              id="access-name"
              label={t('auth.requestAccess.name')}
              error={errors.name?.message}
              required
            >
              {(control) => <Input {...control} {...form.register('name')} autoComplete="name" />}
            </Field>
            <Field id="access-email" label={t('common.email')} error={errors.email?.message} required>
              {(control) => <EmailInput {...control} {...form.register('email')} />}
            </Field>
            <Field
              id="access-phone"
              label={t('auth.requestAccess.phone')}
              error={errors.phone?.message}
              required
            >
              {(control) => <PhoneInput {...control} {...form.register('phone')} />}
            </Field>
            <Field
              id="access-company"
              label={t('auth.requestAccess.companyName')}
              error={errors.companyName?.message}
              required
            >
              {(control) => (
                <Input {...control} {...form.register('companyName')} autoComplete="organization" />
              )}
            </Field>
          </div>
          <Field
            id="access-website"
            label={t('auth.requestAccess.companyWebsite')}
            error={errors.companyWebsite?.message}
            showOptional
          >
            {(control) => (
              <Input
                {...control}
                {...form.register('companyWebsite')}
                type="url"
                autoComplete="url"
                dir="ltr"
                className="text-start"
                placeholder={t('auth.requestAccess.companyWebsitePlaceholder')}
              />
            )}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              id="access-category"
              label={t('auth.requestAccess.businessCategory')}
              error={errors.businessCategory?.message}
              required
            >
              {(control) => (
                <Select {...control} {...form.register('businessCategory')} defaultValue="">
                  <option value="" disabled>
                    {t('common.choose')}
                  </option>
                  {businessCategories.map((category) => (
                    <option key={category} value={category}>
                      {t(`auth.requestAccess.categories.${category}`)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field
              id="access-referral"
              label={t('auth.requestAccess.howDidYouHearAboutUs')}
              error={errors.howDidYouHearAboutUs?.message}
              required
            >
              {(control) => (
                <Select {...control} {...form.register('howDidYouHearAboutUs')} defaultValue="">
                  <option value="" disabled>
                    {t('common.choose')}
                  </option>
                  {referralSources.map((source) => (
                    <option key={source} value={source}>
                      {t(`auth.requestAccess.referrals.${source}`)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <PublicSubmit pending={send.isPending} solvingCaptcha={captcha.isSolving}>
            {t('auth.requestAccess.submit')}
          </PublicSubmit>
        </form>
        <p className="mt-6 border-t border-slate-200 pt-5 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          {t('auth.requestAccess.haveAccount')}{' '}
          <TextLink to="/login">{t('auth.requestAccess.signIn')}</TextLink>
        </p>
      </PublicCard>
    </PublicLayout>
  );
}
