import type { CurrentUser, LoginInput, SecondStepRequired } from '@dukkan/contract';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PublicCard, PublicLayout } from '../../components/public-layout.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { loadSignedInTranslations } from '../../i18n/i18n.ts';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { fetchCurrentUser } from '../../lib/fetch-current-user.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { createLazyResolver } from '../../lib/lazy-resolver.ts';
import {
  forgetLoginReturn,
  landingAfterSignIn,
  loginEmailFrom,
  loginReturnState,
  withLoginReturn,
} from '../../lib/login-redirect.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { activeQueryClient } from '../../lib/query-client-handle.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

// /login is the page whose size matters most (100 KB of JavaScript, bench/bundle-size.ts): zod and
// the schema load when the user starts typing, and neither react-hook-form (14 KB on the wire) nor
// TanStack Query (9 KB) is used here; the signed-in user is handed to the app's query client after.
const loginCheck = createLazyResolver<LoginInput>(() =>
  import('./login-schema.ts').then((m) => m.loginInputSchema),
);

// The second step is for the accounts that have a factor: its chunk (and its texts, the signed-in
// area's) load when the password was right, keeping /login within its budget.
const SecondStep = lazyComponent(() => import('./second-step.tsx').then((m) => m.SecondStep));

/**
 * The contract's `isSecondStepRequired`, written here: importing it would bring its module's
 * schemas (module-level calls no bundler may drop) onto the login path.
 */
const isSecondStepRequired = (answer: CurrentUser | SecondStepRequired): answer is SecondStepRequired =>
  'secondFactor' in answer;

type LoginField = keyof LoginInput;
type LoginErrors = Partial<Record<LoginField | 'root', string>>;
const loginFields: readonly LoginField[] = ['email', 'password'];

/** Puts the signed-in user in the app's query client; whatever was cached belonged to whoever was before. */
async function handOver(user: CurrentUser) {
  const queryClient = await activeQueryClient();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0] });
  queryClient.setQueryData(queryKeys.currentUser, user);
}

/**
 * Where the signed-in user goes (`landingAfterSignIn`): what they may open is the signed-in
 * area's knowledge (its screens and menu), loaded now — the area it goes to needs it next anyway.
 * The previous page's toasts ("Your profile is ready…") stay behind.
 */
async function landing(user: CurrentUser, from: string | null, state: unknown): Promise<string> {
  const [{ signInAccess }, { toast }] = await Promise.all([
    import('../../app/landing.ts'),
    import('react-hot-toast'),
  ]);
  toast.remove();
  return landingAfterSignIn(from, state, signInAccess(user));
}

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  useDocumentTitle(t('auth.login.submit'));
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const from = params.get('from');
  // The portal's query comes in navigation state; a reload or a detour through /forgot-password
  // comes back without it, and finds it kept for the tab (decision 0034).
  const state = useMemo(() => loginReturnState(from, location.state), [from, location.state]);
  const [user, setUser] = useState<CurrentUser | null>(null);
  // The password was right and the account has a second factor: the step it offers.
  const [secondStep, setSecondStep] = useState<SecondStepRequired['secondFactor'] | null>(null);
  const [pending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<LoginErrors>({});
  // As react-hook-form does by default: checked on submit, then again on every change.
  const [submitted, setSubmitted] = useState(false);

  // Signed in already (the session is asked once), or just now: go on to `from` if the member may
  // open it, else where they may be (spec §2, §4; decision 0018).
  useEffect(() => {
    const probe = new AbortController();
    fetchCurrentUser(probe.signal).then(
      (signedIn) => {
        if (signedIn) void handOver(signedIn).then(() => setUser(signedIn));
      },
      () => undefined, // not known to be signed in: the form stays
    );
    return () => probe.abort();
  }, []);
  useEffect(() => {
    if (!user) return;
    let left = false;
    landing(user, from, state).then(
      (path) => {
        if (left) return;
        forgetLoginReturn();
        void navigate(path, { replace: true });
      },
      // The signed-in area could not be downloaded (offline): the form stays, with its spinner
      // gone, and a second press tries again.
      () => {
        if (!left) setUser(null);
      },
    );
    return () => {
      left = true;
    };
  }, [user, from, state, navigate]);

  const readValues = (): LoginInput => {
    const data = new FormData(formRef.current ?? undefined);
    return { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') };
  };
  const focusField = (field: string) =>
    formRef.current?.querySelector<HTMLInputElement>(`[name="${field}"]`)?.focus();

  const onLoginError = (error: unknown) => {
    if (isApiError(error) && (error.code === 'UNAUTHORIZED' || error.name === 'UnauthorizedError')) {
      setErrors({ root: 'INVALID_CREDENTIALS' });
      return;
    }
    const fromServer: LoginErrors = {};
    const applied = applyValidationIssues<LoginInput>(
      error,
      (field, { message }, options) => {
        fromServer[field as LoginField] = message;
        if (options?.shouldFocus) focusField(field);
      },
      loginFields,
    );
    if (applied) setErrors(fromServer);
    // The toaster's code is not on the login path: it loads with the first message.
    else
      void import('react-hot-toast').then(({ toast }) =>
        toast.error(describeApiError(error, t, i18n.language)),
      );
  };

  const login = async (input: LoginInput) => {
    setPending(true);
    try {
      const answer = await apiRequest<CurrentUser | SecondStepRequired>('/auth/login', {
        method: 'POST',
        body: input,
      });
      if (isSecondStepRequired(answer)) {
        // Its texts come with the signed-in area's, which the sign-in opens next anyway.
        await Promise.all([SecondStep.preload(), loadSignedInTranslations()]);
        setSecondStep(answer.secondFactor);
        return;
      }
      await handOver(answer);
      setUser(answer);
    } catch (error) {
      onLoginError(error);
    } finally {
      setPending(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const checked = await loginCheck.check(readValues());
    if (checked.errors) {
      setErrors(checked.errors);
      const first = loginFields.find((field) => checked.errors[field]);
      if (first) focusField(first);
      return;
    }
    setErrors({});
    await login(checked.values);
  };

  const onChange = async () => {
    if (!submitted) {
      if (errors.root) setErrors({});
      return;
    }
    const checked = await loginCheck.check(readValues());
    setErrors(checked.errors ?? {});
  };

  const signedInWithSecondStep = async (signedIn: CurrentUser) => {
    await handOver(signedIn);
    setUser(signedIn);
  };

  if (secondStep) {
    return (
      <PublicLayout>
        <PublicCard title={t('secondStep.secondStepTitle')}>
          <SecondStep
            methods={secondStep.methods}
            onDone={signedInWithSecondStep}
            onStartOver={() => {
              setSecondStep(null);
              setSubmitted(false);
              setErrors({});
            }}
          />
        </PublicCard>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout>
      <PublicCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
        <form
          ref={formRef}
          onSubmit={(event) => void onSubmit(event)}
          onChange={() => void onChange()}
          onFocus={loginCheck.preload}
          noValidate
          className="space-y-5"
        >
          {errors.root && <Alert tone="error">{messageText(errors.root)}</Alert>}
          <Field id="login-email" label={t('common.email')} error={errors.email} required>
            {(control) => (
              <Input
                {...control}
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                dir="ltr"
                className="text-start"
                // From the invitation just accepted (navigation state: the address stays out of the URL).
                defaultValue={loginEmailFrom(state)}
              />
            )}
          </Field>
          <Field id="login-password" label={t('common.password')} error={errors.password} required>
            {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" />}
          </Field>
          <div className="flex justify-end">
            <TextLink to={withLoginReturn('/forgot-password', from)} className="text-sm">
              {t('auth.login.forgotPassword')}
            </TextLink>
          </div>
          <Button type="submit" className="w-full" loading={pending || Boolean(user)}>
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
