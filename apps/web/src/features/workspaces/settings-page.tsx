import {
  type BaseCurrencyChange,
  type CurrentUser,
  listFormFields,
  numberFormat,
  type WorkspaceSettings,
  type WorkspaceSummary,
  workspaceSettingsForm,
} from '@dukkan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { EmptyState, LoadFailed, Page } from '../../components/page.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { LockIcon, SettingsIcon } from '../../components/ui/icons.tsx';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { cn } from '../../lib/class-names.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspace, useWorkspaceGrant } from '../../lib/workspace-context.tsx';
import { ResourceForm } from '../../resource-ui/form/resource-form.tsx';
import { placeSaveFailure } from '../../resource-ui/form/save-failure.ts';
import { useFileUploads } from '../../resource-ui/use-file-uploads.ts';

const settingsPath = '/workspaces/settings';
const currencyChangePath = '/workspaces/settings/base-currency-change';

/** A save waiting for the admin's word: the form's input, and what the preview said. */
interface PendingChange {
  input: unknown;
  form: UseFormReturn<FieldValues>;
  from: string;
  to: string;
  preview: BaseCurrencyChange;
}

/** The saved settings in every summary of the workspace the current user holds (admin and role lists). */
function withSettings(user: CurrentUser, settings: WorkspaceSettings): CurrentUser {
  const update = (workspace: WorkspaceSummary): WorkspaceSummary =>
    workspace.id === settings.id
      ? {
          ...workspace,
          name: settings.name,
          logo: settings.logo,
          baseCurrency: settings.baseCurrency,
          timeZone: settings.timeZone,
          requireSecondFactor: settings.requireSecondFactor,
        }
      : workspace;
  return {
    ...user,
    adminWorkspaces: user.adminWorkspaces.map(update),
    workspaces: user.workspaces.map((entry) => ({ ...entry, workspace: update(entry.workspace) })),
  };
}

/** Grey boxes where the fields will be, so the card does not jump when they arrive. */
function FieldsSkeleton() {
  const { t } = useTranslation();
  const fields = listFormFields(workspaceSettingsForm.fields);
  return (
    <div role="status" className="space-y-5">
      <span className="sr-only">{t('common.loading')}</span>
      {fields.map((field) => (
        <div key={field.name} aria-hidden="true" className="animate-pulse space-y-2">
          <div className="h-4 w-32 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-10 rounded-lg bg-slate-100 dark:bg-slate-800/70" />
        </div>
      ))}
    </div>
  );
}

/**
 * The declared form, editable (an admin) or read only (every other member). A save puts the
 * server's answer everywhere it is shown — this page, the shell's name and logo, what reads the
 * base currency and the time zone — and starts the form afresh from it, so nothing is left to ask
 * about on leaving.
 */
function SettingsForm({ settings, editable }: { settings: WorkspaceSettings; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { uploadFiles, fileAccess } = useFileUploads();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);

  /**
   * A new base currency converts the workspace's prices: the server says first how many and at
   * what rate, and the admin confirms; without a rate the change is refused under the field.
   */
  const save = async (input: unknown, form: UseFormReturn<FieldValues>) => {
    const to = (input as { baseCurrency?: string }).baseCurrency;
    if (!to || to === settings.baseCurrency) return write(input, form);
    setFailure(null);
    setSaving(true);
    let preview: BaseCurrencyChange | null;
    try {
      preview = await apiRequest<BaseCurrencyChange>(currencyChangePath, {
        query: { workspaceId: settings.id, currency: to },
      });
    } catch (error) {
      // A server without the preview: the save itself converts or refuses.
      if (!isApiError(error) || (error.statusCode !== 404 && error.statusCode !== 405)) {
        setSaving(false);
        setFailure(t('workspaceSettings.saveFailed'));
        return;
      }
      preview = null;
    }
    setSaving(false);
    if (preview?.refusal) {
      form.setError('baseCurrency', { type: 'server', message: preview.refusal }, { shouldFocus: true });
      return;
    }
    if (preview && preview.amounts > 0) {
      setPending({ input, form, from: settings.baseCurrency, to, preview });
      return;
    }
    await write(input, form);
  };

  const write = async (input: unknown, form: UseFormReturn<FieldValues>) => {
    setFailure(null);
    setSaving(true);
    try {
      const saved = await apiRequest<WorkspaceSettings>(settingsPath, {
        method: 'PATCH',
        body: input,
        query: { workspaceId: settings.id },
      });
      queryClient.setQueryData(queryKeys.workspaceSettings(settings.id), saved);
      queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (user) =>
        user ? withSettings(user, saved) : user,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
      form.reset(workspaceSettingsForm.values(saved));
      toast.success(t('workspaceSettings.saved'));
    } catch (error) {
      setFailure(
        placeSaveFailure(
          error,
          form,
          workspaceSettingsForm.fields,
          t,
          i18n.language,
          t('workspaceSettings.saveFailed'),
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  const rate = pending?.preview.rate;
  return (
    <>
      {editable && <UnsavedChangesGuard when={dirty} />}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        tone="default"
        title={t('workspaceSettings.currencyChangeTitle', { to: pending?.to ?? '' })}
        keepLabel={t('workspaceSettings.currencyChangeKeep', { from: pending?.from ?? '' })}
        confirmLabel={t('workspaceSettings.currencyChangeConfirm')}
        onConfirm={async () => {
          if (pending) await write(pending.input, pending.form);
        }}
      >
        {pending &&
          t('workspaceSettings.currencyChangeBody', {
            count: numberFormat(i18n.language).format(pending.preview.amounts),
            from: pending.from,
            to: pending.to,
            rate: rate == null ? '—' : numberFormat(i18n.language, { maximumFractionDigits: 8 }).format(rate),
          })}
      </ConfirmDialog>
      {failure && (
        <Alert tone="error" className="mb-5">
          {failure}
        </Alert>
      )}
      <ResourceForm
        fields={workspaceSettingsForm.fields}
        schema={workspaceSettingsForm.schema}
        defaultValues={workspaceSettingsForm.values(settings)}
        recordId={settings.id}
        onSubmit={save}
        uploadFiles={uploadFiles}
        fileAccess={fileAccess}
        readOnly={!editable}
        onDirtyChange={setDirty}
        footer={
          <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
            <Button type="submit" loading={saving}>
              {t('common.save')}
            </Button>
          </div>
        }
      />
    </>
  );
}

/**
 * "Require a second factor" (an admin's switch): members whose session has not used one are asked
 * to enrol or step up before anything of the workspace. The server turns it on only for an admin
 * whose own session used a factor, and its refusal is said under the switch.
 */
function SecondFactorSetting({ settings, editable }: { settings: WorkspaceSettings; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const on = settings.requireSecondFactor;

  const toggle = async () => {
    setFailure(null);
    setSaving(true);
    try {
      const saved = await apiRequest<WorkspaceSettings>(settingsPath, {
        method: 'PATCH',
        body: { requireSecondFactor: !on },
        query: { workspaceId: settings.id },
      });
      queryClient.setQueryData(queryKeys.workspaceSettings(settings.id), saved);
      queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (user) =>
        user ? withSettings(user, saved) : user,
      );
      toast.success(t('workspaceSettings.saved'));
    } catch (error) {
      setFailure(
        isApiError(error) && error.code === 'SECOND_FACTOR_REQUIRED'
          ? t('workspaceSettings.requireSecondFactorRefused')
          : describeApiError(error, t, i18n.language),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="mt-8 border-t border-slate-200 pt-6 dark:border-slate-800">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h3 id="require-second-factor" className="text-sm font-semibold text-slate-900 dark:text-white">
            {t('workspaceSettings.requireSecondFactor')}
          </h3>
          <p id="require-second-factor-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t('workspaceSettings.requireSecondFactorHint')}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="require-second-factor"
          aria-describedby="require-second-factor-hint"
          disabled={!editable || saving}
          onClick={() => void toggle()}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60',
            on ? 'bg-brand-600 dark:bg-brand-500' : 'bg-slate-300 dark:bg-slate-700',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block size-5 rounded-full bg-white shadow transition-transform',
              on ? 'translate-x-5.5 rtl:-translate-x-5.5' : 'translate-x-0.5 rtl:-translate-x-0.5',
            )}
          />
        </button>
      </div>
      {failure && (
        <Alert tone="error" className="mt-4">
          {failure}
        </Alert>
      )}
    </div>
  );
}

/**
 * `/settings`: the selected workspace's own settings — name, logo, base currency, time zone, how
 * many days its audit log keeps a change —
 * in the contract's declared form (`workspaceSettingsForm`), so a later setting is a declared
 * field, not a page. Every member sees them (the route needs no permission, spec §2); the
 * workspace's admins edit them, and leaving with unsaved changes asks first.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { selectedWorkspace } = useWorkspace();
  const { isAdmin } = useWorkspaceGrant();
  const workspaceId = selectedWorkspace?.id;
  const settings = useQuery({
    queryKey: queryKeys.workspaceSettings(workspaceId ?? ''),
    queryFn: () => apiRequest<WorkspaceSettings>(settingsPath, { query: { workspaceId } }),
    enabled: workspaceId !== undefined,
  });

  return (
    <Page title={t('nav.settings')}>
      {!selectedWorkspace ? (
        <EmptyState icon={<SettingsIcon />} title={t('shell.noWorkspace')} />
      ) : (
        <Card className="mx-auto max-w-3xl p-6 sm:p-8">
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">
            {t('workspaceSettings.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t('workspaceSettings.subtitle', { workspaceName: selectedWorkspace.name })}
          </p>
          {!isAdmin && (
            <p className="mt-4 flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
              <LockIcon className="size-4 shrink-0" />
              {t('workspaceSettings.readOnly')}
            </p>
          )}
          <div className="mt-6">
            {settings.isPending ? (
              <FieldsSkeleton />
            ) : settings.isError ? (
              <LoadFailed
                error={settings.error}
                message={t('workspaceSettings.loadFailed')}
                onRetry={() => void settings.refetch()}
              />
            ) : (
              // Keyed by workspace and role: another workspace, or a grant changed, starts afresh.
              <>
                <SettingsForm
                  key={`${settings.data.id} ${isAdmin}`}
                  settings={settings.data}
                  editable={isAdmin}
                />
                <SecondFactorSetting settings={settings.data} editable={isAdmin} />
              </>
            )}
          </div>
        </Card>
      )}
    </Page>
  );
}
