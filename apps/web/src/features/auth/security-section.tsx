import type { FactorEnrolled, SecondFactorList, SecondFactorSummary, TotpEnrolment } from '@dukkan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type FieldValues,
  type Path,
  type UseFormRegisterReturn,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { encode } from 'uqr';
import { LoadFailed } from '../../components/page.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Dialog, DialogBody, DialogFooter, DialogForm } from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { applyValidationIssues } from '../../lib/form-errors.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useFormatters } from '../../lib/use-formatters.ts';

/*
 * The profile's "Security" (docs/architecture.md, "Second factors"): the person's authenticator
 * apps and passkeys, adding and removing them (each asking for the password again), and their
 * recovery codes, shown once when made.
 */

/** The server's refusal placed on the form's fields, else above the form. */
function useRefusal<T extends FieldValues>(form: UseFormReturn<T>, fields: readonly Path<T>[]) {
  const { t, i18n } = useTranslation();
  return (error: unknown) => {
    if (applyValidationIssues(error, form.setError, fields)) return;
    form.setError('root.server' as Path<T>, { message: describeApiError(error, t, i18n.language) });
  };
}

/** After a change: the list, and the current user (whether they have a factor), read again. */
function useRefreshFactors() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.secondFactors }),
      queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
    ]);
}

/**
 * A QR code drawn as an SVG element from `uqr`'s modules: made here (the seed never leaves the
 * page), and as an element rather than an image, which the content security policy would refuse
 * as a `data:` address. Dark on white in both themes, as scanners expect.
 */
function QrCode({ text, label }: { text: string; label: string }) {
  const { data } = encode(text, { border: 2 });
  const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${data.length} ${data.length}`}
      shapeRendering="crispEdges"
      className="size-44 shrink-0 rounded-md bg-white"
      data-testid="totp-qr"
    >
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The codes as a text file: one a line, under a line saying what they are. */
export function recoveryCodesText(codes: readonly string[], heading: string): string {
  return `${heading}\n\n${codes.join('\n')}\n`;
}

/** Ten recovery codes, shown once: to copy or download before the dialog closes. */
function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  const text = recoveryCodesText(codes, t('security.recoveryFileHeading'));
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => toast.success(t('security.copied')),
      () => toast.error(t('security.copyFailed')),
    );
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'dukkan-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('security.recoveryCodesHint')}</p>
      <ol
        dir="ltr"
        className="grid grid-cols-1 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-2 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" size="sm" onClick={() => void copy()}>
          {t('security.copy')}
        </Button>
        <Button type="button" variant="secondary" size="sm" onClick={download}>
          {t('security.download')}
        </Button>
      </div>
    </div>
  );
}

function RecoveryCodesDialog({ codes, onClose }: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('security.recoveryCodesTitle')}
    >
      <DialogBody>
        <RecoveryCodes codes={codes} />
      </DialogBody>
      <DialogFooter>
        <Button type="button" onClick={onClose}>
          {t('security.savedThem')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

interface PasswordForm {
  password: string;
}

function PasswordField({
  id,
  error,
  registration,
}: {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={t('profile.currentPassword')} error={error} required>
      {(control) => <PasswordInput {...control} {...registration} autoComplete="current-password" />}
    </Field>
  );
}

const passwordRequired = { required: 'PASSWORD_IS_REQUIRED' } as const;

/** "Add authenticator app": the password, then the QR code (or the secret) and a first code. */
function AddAuthenticatorDialog({ onClose, onEnrolled }: EnrolDialogProps) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const passwordForm = useForm<PasswordForm>({ defaultValues: { password: '' } });
  const confirmForm = useForm<{ name: string; code: string }>({
    defaultValues: { name: t('security.defaultAppName'), code: '' },
  });
  const refusePassword = useRefusal(passwordForm, ['password']);
  const refuseConfirm = useRefusal(confirmForm, ['name', 'code']);
  const submitting = passwordForm.formState.isSubmitting || confirmForm.formState.isSubmitting;

  const start = async ({ password }: PasswordForm) => {
    try {
      setEnrolment(
        await apiRequest<TotpEnrolment>('/auth/second-factors/totp/start', {
          method: 'POST',
          body: { password },
        }),
      );
    } catch (error) {
      refusePassword(error);
    }
  };
  const confirm = async (input: { name: string; code: string }) => {
    try {
      onEnrolled(
        await apiRequest<FactorEnrolled>('/auth/second-factors/totp', { method: 'POST', body: input }),
      );
    } catch (error) {
      refuseConfirm(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !submitting) onClose();
      }}
      title={t('security.addAppTitle')}
      description={enrolment ? t('security.scanHint') : t('security.passwordHint')}
    >
      {enrolment ? (
        <DialogForm
          onSubmit={confirmForm.handleSubmit(confirm)}
          submitting={submitting}
          error={confirmForm.formState.errors.root?.server?.message}
          submitLabel={t('security.confirmApp')}
        >
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            <QrCode text={enrolment.uri} label={t('security.qrAlt')} />
            <div className="min-w-0 space-y-1 text-sm">
              <p className="text-slate-700 dark:text-slate-300">{t('security.typeSecret')}</p>
              <code
                dir="ltr"
                className="block break-all rounded bg-slate-100 px-2 py-1 font-mono text-slate-900 dark:bg-slate-800 dark:text-slate-100"
                data-testid="totp-secret"
              >
                {enrolment.secret}
              </code>
            </div>
          </div>
          <Field
            id="totp-name"
            label={t('security.factorName')}
            error={confirmForm.formState.errors.name?.message}
            required
          >
            {(control) => <Input {...control} {...confirmForm.register('name')} maxLength={100} />}
          </Field>
          <Field
            id="totp-code"
            label={t('secondStep.code')}
            error={confirmForm.formState.errors.code?.message}
            required
          >
            {(control) => (
              <Input
                {...control}
                {...confirmForm.register('code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={12}
                dir="ltr"
                className="text-start font-mono tracking-widest"
              />
            )}
          </Field>
        </DialogForm>
      ) : (
        <DialogForm
          onSubmit={passwordForm.handleSubmit(start)}
          submitting={submitting}
          error={passwordForm.formState.errors.root?.server?.message}
          submitLabel={t('security.continue')}
        >
          <PasswordField
            id="totp-password"
            error={passwordForm.formState.errors.password?.message}
            registration={passwordForm.register('password', passwordRequired)}
          />
        </DialogForm>
      )}
    </Dialog>
  );
}

type RegistrationOptions = Parameters<
  typeof import('@simplewebauthn/browser').startRegistration
>[0]['optionsJSON'];

/** "Add passkey": the password and a name, then the browser's own dialog. */
function AddPasskeyDialog({ onClose, onEnrolled }: EnrolDialogProps) {
  const { t } = useTranslation();
  const form = useForm<{ password: string; name: string }>({
    defaultValues: { password: '', name: t('security.defaultPasskeyName') },
  });
  const refuse = useRefusal(form, ['password', 'name']);
  const { isSubmitting } = form.formState;

  const register = async ({ password, name }: { password: string; name: string }) => {
    try {
      const options = await apiRequest<RegistrationOptions>('/auth/second-factors/passkey/options', {
        method: 'POST',
        body: { password },
      });
      const { startRegistration } = await import('@simplewebauthn/browser');
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: options });
      } catch {
        form.setError('root.server', { message: t('security.passkeyCancelled') });
        return;
      }
      onEnrolled(
        await apiRequest<FactorEnrolled>('/auth/second-factors/passkey', {
          method: 'POST',
          body: { name, response },
        }),
      );
    } catch (error) {
      refuse(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !isSubmitting) onClose();
      }}
      title={t('security.addPasskeyTitle')}
      description={t('security.passkeyHint')}
    >
      <DialogForm
        onSubmit={form.handleSubmit(register)}
        submitting={isSubmitting}
        error={form.formState.errors.root?.server?.message}
        submitLabel={t('security.createPasskey')}
      >
        <Field
          id="passkey-name"
          label={t('security.factorName')}
          error={form.formState.errors.name?.message}
          required
        >
          {(control) => <Input {...control} {...form.register('name')} maxLength={100} />}
        </Field>
        <PasswordField
          id="passkey-password"
          error={form.formState.errors.password?.message}
          registration={form.register('password', passwordRequired)}
        />
      </DialogForm>
    </Dialog>
  );
}

interface EnrolDialogProps {
  onClose: () => void;
  onEnrolled: (enrolled: FactorEnrolled) => void;
}

/** A ConfirmDialog that asks for the password first (removing a factor, new recovery codes). */
function PasswordConfirm({
  open,
  onOpenChange,
  title,
  body,
  keepLabel,
  confirmLabel,
  tone,
  onConfirm,
}: {
  keepLabel: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  body: string;
  confirmLabel: string;
  tone?: 'danger' | 'default';
  onConfirm: (password: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setPassword('');
        onOpenChange(next);
      }}
      title={title}
      keepLabel={keepLabel}
      confirmLabel={confirmLabel}
      tone={tone}
      onConfirm={() => onConfirm(password)}
    >
      <p>{body}</p>
      <div className="mt-4">
        <Field id="confirm-password" label={t('profile.currentPassword')} required>
          {(control) => (
            <PasswordInput
              {...control}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="current-password"
            />
          )}
        </Field>
      </div>
    </ConfirmDialog>
  );
}

function FactorRow({ factor, onRemove }: { factor: SecondFactorSummary; onRemove: () => void }) {
  const { t } = useTranslation();
  const { formatDate } = useFormatters();
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" data-testid="second-factor">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900 dark:text-white">{factor.name}</span>
          <Badge tone="brand">{t(`security.kinds.${factor.kind}`)}</Badge>
        </div>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {t('security.added', { date: formatDate(factor.createdAt) })}
          {' · '}
          {factor.lastUsedAt
            ? t('security.lastUsed', { date: formatDate(factor.lastUsedAt) })
            : t('security.neverUsed')}
        </p>
      </div>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        onClick={onRemove}
        aria-label={t('security.removeNamed', { name: factor.name })}
      >
        {t('security.remove')}
      </Button>
    </li>
  );
}

/** The profile's "Security" section: factors, adding and removing them, recovery codes. */
export function SecuritySection() {
  const { t } = useTranslation();
  const refresh = useRefreshFactors();
  const list = useQuery({
    queryKey: queryKeys.secondFactors,
    queryFn: ({ signal }) => apiRequest<SecondFactorList>('/auth/second-factors', { signal }),
  });
  const [adding, setAdding] = useState<'totp' | 'passkey' | null>(null);
  const [removing, setRemoving] = useState<SecondFactorSummary | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const enrolled = (result: FactorEnrolled) => {
    setAdding(null);
    toast.success(t('security.factorAdded'));
    if (result.recoveryCodes) setCodes(result.recoveryCodes);
    void refresh();
  };

  if (list.isError) {
    return (
      <LoadFailed error={list.error} message={t('security.loadFailed')} onRetry={() => void list.refetch()} />
    );
  }
  if (!list.data) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {t('common.loading')}
      </p>
    );
  }
  const { factors, recoveryCodesLeft } = list.data;
  return (
    <div className="space-y-5">
      {factors.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('security.none')}</p>
      ) : (
        <ul className="-mx-6 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {factors.map((factor) => (
            <FactorRow key={factor.id} factor={factor} onRemove={() => setRemoving(factor)} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={() => setAdding('totp')}>
          {t('security.addApp')}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setAdding('passkey')}>
          {t('security.addPasskey')}
        </Button>
      </div>
      {factors.length > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 px-4 py-3 dark:border-slate-800">
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="recovery-codes-left">
            {t('security.recoveryCodesLeft', { count: recoveryCodesLeft })}
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={() => setRenewing(true)}>
            {t('security.newRecoveryCodes')}
          </Button>
        </div>
      )}
      {adding === 'totp' && <AddAuthenticatorDialog onClose={() => setAdding(null)} onEnrolled={enrolled} />}
      {adding === 'passkey' && <AddPasskeyDialog onClose={() => setAdding(null)} onEnrolled={enrolled} />}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
      <PasswordConfirm
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t('security.removeTitle', { name: removing?.name ?? '' })}
        body={t('security.removeBody')}
        keepLabel={t('security.keepFactor')}
        confirmLabel={t('security.remove')}
        onConfirm={async (password) => {
          if (!removing) return;
          await apiRequest(`/auth/second-factors/${removing.id}`, { method: 'DELETE', body: { password } });
          toast.success(t('security.factorRemoved'));
          await refresh();
        }}
      />
      <PasswordConfirm
        open={renewing}
        onOpenChange={setRenewing}
        title={t('security.newRecoveryCodesTitle')}
        body={t('security.newRecoveryCodesBody')}
        keepLabel={t('security.keepCodes')}
        confirmLabel={t('security.newRecoveryCodes')}
        tone="default"
        onConfirm={async (password) => {
          const made = await apiRequest<{ recoveryCodes: string[] }>('/auth/recovery-codes', {
            method: 'POST',
            body: { password },
          });
          setCodes(made.recoveryCodes);
          await refresh();
        }}
      />
    </div>
  );
}
