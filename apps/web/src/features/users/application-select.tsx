import { joinList, pickLocalized } from '@dukkan/contract';
import { type Ref, useId, useState } from 'react';
import {
  type Control,
  Controller,
  type ErrorOption,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Field } from '../../components/ui/field.tsx';
import { ChevronsUpDownIcon } from '../../components/ui/icons.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { cn } from '../../lib/class-names.ts';
import type { InstalledApplication } from './use-installed-applications.ts';

/** An application's name in the reader's language; an id no longer installed is shown as it is. */
export function applicationName(
  installed: readonly InstalledApplication[],
  clientId: string,
  language: string,
): string {
  const application = installed.find((entry) => entry.clientId === clientId);
  return application ? pickLocalized(application.name, language) : clientId;
}

/**
 * The applications to choose among: the installed ones the user may give, those the member
 * already has (kept, or taken away and given back: no grant), and the chosen ones, so each can
 * be taken away (one no longer installed is listed by its id).
 */
function offeredApplications(
  installed: readonly InstalledApplication[],
  value: readonly string[],
  kept: readonly string[] = [],
): Pick<InstalledApplication, 'clientId' | 'name'>[] {
  const listed = installed.filter(
    (entry) => entry.grantable || kept.includes(entry.clientId) || value.includes(entry.clientId),
  );
  return [
    ...listed,
    ...value
      .filter((clientId) => !installed.some((entry) => entry.clientId === clientId))
      .map((clientId) => ({ clientId, name: [] })),
  ];
}

/**
 * The field's hint: nothing installed, nothing the user may give (a non-admin gives only the
 * applications they hold), some of them, or all.
 */
export function applicationsHint(installed: readonly InstalledApplication[]) {
  if (installed.length === 0) return 'users.noInstalledApplications' as const;
  if (installed.every((entry) => entry.grantable)) return 'users.applicationsHint' as const;
  return installed.some((entry) => entry.grantable)
    ? ('users.heldApplicationsHint' as const)
    : ('users.noHeldApplications' as const);
}

/**
 * The server's word on the applications field: (403) a non-admin's OWN_APPLICATIONS_UNCHANGEABLE
 * names the field, while APPLICATION_NOT_INSTALLED and (403)
 * APPLICATION_NOT_HELD name the refused one by its index (`applications.2`).
 */
function applicationsIssue(error: unknown): string | undefined {
  if (!isApiError(error) || (error.code !== 'VALIDATION' && error.code !== 'FORBIDDEN')) return undefined;
  return error.body?.issues?.find(
    (issue) => issue.path === 'applications' || issue.path.startsWith('applications.'),
  )?.message;
}

/**
 * The rest of a refused invite or member change, once its fields' issues are shown (`placed`):
 * the applications' issue under the applications (focused unless a field's issue was), anything
 * else over the form, in the words of `describe`.
 */
export function showApplicationsRefusal(
  error: unknown,
  placed: boolean,
  setError: (
    name: 'applications' | 'root.server',
    error: ErrorOption,
    options?: { shouldFocus: boolean },
  ) => void,
  describe: (error: unknown) => string,
) {
  const applicationsMessage = applicationsIssue(error);
  if (applicationsMessage)
    setError('applications', { type: 'server', message: applicationsMessage }, { shouldFocus: !placed });
  else if (!placed) setError('root.server', { message: describe(error) });
}

/**
 * The applications a member may sign in to: a button naming the chosen ones opens a search box
 * over the applications offered (`offeredApplications`), each a checkbox (a workspace has a
 * handful, so they are all listed; the search narrows them by name in either language). Escape
 * or a click elsewhere closes it and gives the focus back to the button.
 */
function ApplicationSelect({
  id,
  installed,
  value,
  kept,
  onChange,
  invalid,
  describedBy,
  disabled,
  ref,
}: {
  id: string;
  installed: readonly InstalledApplication[];
  value: readonly string[];
  /** The member's applications now: offered even when the user may not give them. */
  kept?: readonly string[];
  onChange: (clientIds: string[]) => void;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
  /** The button, for the form to focus when the choice is refused. */
  ref?: Ref<HTMLButtonElement>;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const listId = useId();
  const [query, setQuery] = useState('');
  const options = offeredApplications(installed, value, kept);
  const needle = query.trim().toLocaleLowerCase(language);
  const matches = options.filter(
    (option) =>
      needle === '' ||
      option.clientId.toLocaleLowerCase().includes(needle) ||
      option.name.some((entry) => entry.value.toLocaleLowerCase(language).includes(needle)),
  );
  const chosen = value.map((clientId) => applicationName(installed, clientId, language));
  const toggle = (clientId: string, checked: boolean) =>
    onChange(checked ? [...value, clientId] : value.filter((current) => current !== clientId));

  return (
    <Popover onOpenChange={(open) => !open && setQuery('')}>
      <PopoverTrigger asChild>
        <button
          ref={ref}
          id={id}
          type="button"
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClassName, 'flex min-h-10 items-center gap-2 py-2 text-start')}
        >
          <span className="min-w-0 flex-1">
            {chosen.length > 0 ? (
              joinList(chosen, language)
            ) : (
              <span className="text-slate-500 dark:text-slate-400">{t('users.chooseApplications')}</span>
            )}
          </span>
          <ChevronsUpDownIcon className="size-4 shrink-0 text-slate-500" />
        </button>
      </PopoverTrigger>
      <PopoverContent
        className="w-[min(24rem,calc(100vw-2rem))] p-2"
        aria-label={t('users.chooseApplications')}
      >
        <input
          type="search"
          aria-label={t('users.searchApplications')}
          aria-controls={listId}
          placeholder={t('users.searchApplications')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className={cn(controlClassName, 'h-10')}
        />
        <fieldset id={listId} className="mt-2 max-h-64 overflow-y-auto">
          <legend className="sr-only">{t('users.columns.applications')}</legend>
          {matches.map((option) => {
            const optionId = `${listId}-${option.clientId}`;
            return (
              <label
                key={option.clientId}
                htmlFor={optionId}
                className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2 py-2 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                <Checkbox
                  id={optionId}
                  checked={value.includes(option.clientId)}
                  onChange={(event) => toggle(option.clientId, event.target.checked)}
                />
                <span className="min-w-0 flex-1 truncate">
                  {applicationName(installed, option.clientId, language)}
                </span>
              </label>
            );
          })}
          {matches.length === 0 && (
            <p role="status" className="px-2 py-2 text-sm text-slate-600 dark:text-slate-400">
              {options.length === 0 ? t('users.noInstalledApplications') : t('users.noApplicationMatch')}
            </p>
          )}
        </fieldset>
      </PopoverContent>
    </Popover>
  );
}

/**
 * The invite and member dialogs' Applications field: the workspace's installed applications to
 * choose among (those the user may give), bound to the form's `applications`; choosing one
 * clears the field's error.
 */
export function ApplicationsField<Values extends FieldValues, Output>({
  id,
  control,
  name,
  installed,
  kept,
  locked,
  error,
  hint,
  onChosen,
}: {
  id: string;
  control: Control<Values, unknown, Output>;
  name: FieldPath<Values>;
  installed: readonly InstalledApplication[];
  /** The member's applications now (the member dialog). */
  kept?: readonly string[];
  /** Shown, not changeable (a non-admin's own applications). */
  locked?: boolean;
  error?: string;
  hint: string;
  /** Called when a change leaves at least one application chosen. */
  onChosen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={t('users.columns.applications')} error={error} hint={hint} showOptional>
      {(field) => (
        <Controller
          control={control}
          name={name}
          render={({ field: bound }) => {
            const value = (bound.value as string[] | undefined) ?? [];
            return (
              <ApplicationSelect
                id={field.id}
                installed={installed}
                value={value}
                kept={kept}
                onChange={(next) => {
                  bound.onChange(next);
                  if (next.length > 0) onChosen();
                }}
                invalid={field['aria-invalid']}
                describedBy={field['aria-describedby']}
                disabled={locked || offeredApplications(installed, value, kept).length === 0}
                ref={bound.ref}
              />
            );
          }}
        />
      )}
    </Field>
  );
}
