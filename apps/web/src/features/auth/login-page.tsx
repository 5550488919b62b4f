import type { CurrentUser, LoginInput } from '@dukkan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PublicCard, PublicLayout } from '../../components/public-layout.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/current-user.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { createLazyResolver } from '../../lib/lazy-resolver.ts';
import { loginRedirectTarget } from '../../lib/login-redirect.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

// zod and the schema load when the user starts typing: /login is the page whose size matters most.
const loginResolver = createLazyResolver<LoginInput>(async () => {
  const [{ zodResolver }, { loginInputSchema }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('./login-schema.ts'),
  ]);
  return zodResolver(loginInputSchema);
});

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  useDocumentTitle(t('auth.login.submit'));
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const target = loginRedirectTarget(params.get('from'), location.state);
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();

  // Signed in already, or just now: the user query holds the user, so go on to `from` (spec §2).
  useEffect(() => {
    if (user) void navigate(target, { replace: true });
  }, [user, target, navigate]);

  const form = useForm<LoginInput>({
    resolver: loginResolver.resolver,
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const login = useMutation({
    mutationFn: (input: LoginInput) =>
      apiRequest<CurrentUser>('/auth/login', { method: 'POST', body: input }),
    onSuccess: (signedIn) => {
      // Other cached answers belonged to whoever was signed in before.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0] });
      queryClient.setQueryData(queryKeys.currentUser, signedIn);
    },
    onError: (error) => {
      if (isApiError(error) && (error.code === 'UNAUTHORIZED' || error.name === 'UnauthorizedError')) {
        form.setError('root.server', { message: 'INVALID_CREDENTIALS' });
      } else if (!applyValidationIssues(error, form.setError, ['email', 'password'])) {
        toast.error(describeApiError(error, t, i18n.language));
      }
    },
  });

  const onSubmit = form.handleSubmit((input) => login.mutate(input));
  const rootError = errors.root?.server?.message;

  return (
    <PublicLayout>
      <PublicCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
        <form onSubmit={onSubmit} onFocus={loginResolver.preload} noValidate className="space-y-5">
          {rootError && <Alert tone="error">{messageText(rootError)}</Alert>}
          <Field id="login-email" label={t('common.email')} error={errors.email?.message} required>
            {(control) => (
              <Input
                {...control}
                {...form.register('email', { onChange: () => form.clearErrors('root') })}
                type="email"
                autoComplete="email"
                inputMode="email"
                dir="ltr"
                className="text-start"
              />
            )}
          </Field>
          <Field id="login-password" label={t('common.password')} error={errors.password?.message} required>
            {(control) => (
              <PasswordInput
                {...control}
                {...form.register('password', { onChange: () => form.clearErrors('root') })}
                autoComplete="current-password"
              />
            )}
          </Field>
          <div className="flex justify-end">
            <TextLink to="/forgot-password" className="text-sm">
              {t('auth.login.forgotPassword')}
            </TextLink>
          </div>
          <Button type="submit" className="w-full" loading={login.isPending || Boolean(user)}>
            {t('auth.login.submit')}
          </Button>
        </form>
        <p className="mt-6 border-t border-slate-200 pt-5 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          {t('auth.login.noAccount')}{' '}
          <TextLink to="/request-for-access">{t('auth.login.requestAccess')}</TextLink>
        </p>
      </PublicCard>
    </PublicLayout>
  );
}
