import type { CurrentUser, SecondFactorMethod } from '@dukkan/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { useMessageText } from '../../lib/message-text.ts';

/*
 * The second step (docs/architecture.md, "Second factors"): a code from an authenticator app, a
 * passkey, or a recovery code. The same step finishes a sign-in whose password was right (the
 * server holds it by the sign-in cookie) and steps a signed-in session up when a workspace asks
 * for a second factor; the server tells them apart, so this form does not need to.
 */

/** Which way is offered first: the code, as most people have an app; else whatever is there. */
export function firstMethod(methods: readonly SecondFactorMethod[]): SecondFactorMethod {
  return methods.find((method) => method !== 'recovery') ?? 'recovery';
}

/** The words a refused step shows: the field's code translated, else the call's failure. */
function useRefusalText() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return (error: unknown): string => {
    if (isApiError(error)) {
      const issue = error.body?.issues?.[0];
      if (error.code === 'VALIDATION' && issue) return messageText(issue.message);
      // The sign-in's cookie is gone and there is no session to step up: start again.
      if (error.code === 'UNAUTHORIZED') return messageText('SECOND_STEP_EXPIRED');
    }
    return describeApiError(error, t, i18n.language);
  };
}

/** A passkey's ceremony in the browser: the chunk of `@simplewebauthn/browser` loads when it starts. */
async function passkeyAnswer(): Promise<unknown> {
  const options = await apiRequest<
    Parameters<typeof import('@simplewebauthn/browser').startAuthentication>[0]['optionsJSON']
  >('/auth/second-factor/passkey/options', { method: 'POST', body: {} });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options });
}

/** The browser's refusal of a ceremony (cancelled, timed out, no matching key) rather than the server's. */
const isCeremonyError = (error: unknown) =>
  error instanceof Error && !isApiError(error) && error.name !== 'AbortError';

interface SecondStepProps {
  methods: readonly SecondFactorMethod[];
  /** The session the step opened, with the user it belongs to. */
  onDone: (user: CurrentUser) => Promise<void> | void;
  /** Back to the password (a sign-in); absent for a step-up. */
  onStartOver?: () => void;
}

export function SecondStep({ methods, onDone, onStartOver }: SecondStepProps) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const [method, setMethod] = useState<SecondFactorMethod>(() => firstMethod(methods));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const codeId = useId();

  const choose = (next: SecondFactorMethod) => {
    setMethod(next);
    setError(null);
  };

  const finish = async (call: () => Promise<CurrentUser>) => {
    setPending(true);
    setError(null);
    try {
      await onDone(await call());
    } catch (failure) {
      setError(isCeremonyError(failure) ? t('secondStep.passkeyCancelled') : refusalText(failure));
      setPending(false);
    }
  };

  const onSubmitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    void finish(() =>
      apiRequest<CurrentUser>(`/auth/second-factor/${method === 'recovery' ? 'recovery' : 'totp'}`, {
        method: 'POST',
        body: { code },
      }),
    );
  };

  const signInWithPasskey = () =>
    finish(async () => {
      const response = await passkeyAnswer();
      return apiRequest<CurrentUser>('/auth/second-factor/passkey', { method: 'POST', body: { response } });
    });

  const others = methods.filter((other) => other !== method);
  const switchLabel: Record<SecondFactorMethod, string> = {
    totp: t('secondStep.useCode'),
    passkey: t('secondStep.usePasskey'),
    recovery: t('secondStep.useRecovery'),
  };
  const subtitle: Record<SecondFactorMethod, string> = {
    totp: t('secondStep.totpSubtitle'),
    passkey: t('secondStep.passkeySubtitle'),
    recovery: t('secondStep.recoverySubtitle'),
  };

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600 dark:text-slate-400">{subtitle[method]}</p>
      {method === 'passkey' ? (
        <>
          {error && <Alert tone="error">{error}</Alert>}
          <Button type="button" className="w-full" loading={pending} onClick={() => void signInWithPasskey()}>
            {t('secondStep.passkeyButton')}
          </Button>
        </>
      ) : (
        <form key={method} onSubmit={onSubmitCode} noValidate className="space-y-5">
          <Field
            id={`${codeId}-${method}`}
            label={method === 'recovery' ? t('secondStep.recoveryCode') : t('secondStep.code')}
            error={error ?? undefined}
            required
          >
            {(control) => (
              <Input
                {...control}
                name="code"
                autoFocus
                autoComplete={method === 'totp' ? 'one-time-code' : 'off'}
                inputMode={method === 'totp' ? 'numeric' : 'text'}
                autoCapitalize="none"
                spellCheck={false}
                maxLength={method === 'totp' ? 12 : 32}
                dir="ltr"
                className="text-start font-mono tracking-widest"
              />
            )}
          </Field>
          <Button type="submit" className="w-full" loading={pending}>
            {t('secondStep.verify')}
          </Button>
        </form>
      )}
      <div className="flex flex-col items-center gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
        {others.map((other) => (
          <Button key={other} type="button" variant="ghost" size="sm" onClick={() => choose(other)}>
            {switchLabel[other]}
          </Button>
        ))}
        {onStartOver && (
          <Button type="button" variant="ghost" size="sm" onClick={onStartOver}>
            {t('secondStep.startOver')}
          </Button>
        )}
      </div>
    </div>
  );
}
