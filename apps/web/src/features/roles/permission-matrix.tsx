import {
  type PermissionAction,
  type PermissionResource,
  type PermissionTag,
  permissionActions,
  permissionResources,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import type signedInEn from '../../i18n/locales/signed-in/en.json';
import { groupState, tagsOfAction, tagsOfResource, toggleGroup, toggleTag } from './permission-selection.ts';

const resources = Object.keys(permissionResources) as PermissionResource[];

/**
 * A permission resource's label key, `permissions.resources.<Resource>`. While a resource of the
 * contract's tags has no label in the English texts, the key's type is the sentence saying where
 * to add it, and the type check stops at the `t(…)` below with it.
 */
export type PermissionLabelKey<
  Resource extends string = PermissionResource,
  Labels = (typeof signedInEn)['permissions']['resources'],
> = [Exclude<Resource, keyof Labels>] extends [never]
  ? `permissions.resources.${Resource}`
  : `Add the label permissions.resources.${Exclude<Resource, keyof Labels>} to apps/web/src/i18n/locales/signed-in/en.json and ar.json`;
const labelKey = (resource: PermissionResource) => `permissions.resources.${resource}` as PermissionLabelKey;

function GroupCheckbox({
  label,
  tags,
  selected,
  value,
  grantable,
  disabled,
  onChange,
}: {
  label: string;
  tags: PermissionTag[];
  selected: ReadonlySet<string>;
  value: readonly string[];
  grantable: (tag: PermissionTag) => boolean;
  disabled?: boolean;
  onChange: (tags: string[]) => void;
}) {
  const state = groupState(selected, tags);
  return (
    <Checkbox
      aria-label={label}
      checked={state === 'all'}
      indeterminate={state === 'some'}
      disabled={disabled || !tags.some(grantable)}
      onChange={() => onChange(toggleGroup(value, tags, grantable))}
    />
  );
}

/**
 * The permissions of a role: one row per resource of the catalogue, one column per action, a
 * checkbox only where the catalogue has that tag (Dashboard: view; ExchangeRate: no delete).
 * Row and column headers select or clear their whole group and show "mixed" when partly chosen.
 * Tags the editor cannot grant (a non-admin's missing tags) are shown but cannot be changed.
 */
export function PermissionMatrix({
  value,
  onChange,
  grantable,
  disabled = false,
  labelledBy,
}: {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  grantable: (tag: PermissionTag) => boolean;
  disabled?: boolean;
  labelledBy?: string;
}) {
  const { t } = useTranslation();
  const selected = new Set(value);
  const resourceName = (resource: PermissionResource) => t(labelKey(resource));
  const actionName = (action: PermissionAction) => t(`permissions.actions.${action}`);
  const allTags = resources.flatMap(tagsOfResource);
  const canChange = (tag: PermissionTag) => !disabled && grantable(tag);

  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-700">
      <table aria-labelledby={labelledBy} className="w-full min-w-[19rem] text-sm">
        <thead className="bg-slate-50 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-2 py-2 text-start font-semibold sm:px-3">
              <span className="flex items-center gap-2.5">
                <GroupCheckbox
                  label={t('permissions.selectAll')}
                  tags={allTags}
                  selected={selected}
                  value={value}
                  grantable={canChange}
                  onChange={onChange}
                />
                {t('permissions.resource')}
              </span>
            </th>
            {permissionActions.map((action) => (
              <th key={action} scope="col" className="px-1 py-2 text-center font-semibold sm:px-2">
                <span className="flex flex-col items-center gap-1.5">
                  {actionName(action)}
                  <GroupCheckbox
                    label={t('permissions.selectColumn', { action: actionName(action) })}
                    tags={tagsOfAction(action)}
                    selected={selected}
                    value={value}
                    grantable={canChange}
                    onChange={onChange}
                  />
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-700/70">
          {resources.map((resource) => {
            const actions: readonly PermissionAction[] = permissionResources[resource];
            return (
              <tr key={resource} className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
                <th scope="row" className="px-2 py-2 text-start font-normal sm:px-3">
                  <span className="flex items-center gap-2.5">
                    <GroupCheckbox
                      label={t('permissions.selectRow', { resource: resourceName(resource) })}
                      tags={tagsOfResource(resource)}
                      selected={selected}
                      value={value}
                      grantable={canChange}
                      onChange={onChange}
                    />
                    <span className="font-semibold text-slate-800 dark:text-slate-100">
                      {resourceName(resource)}
                    </span>
                  </span>
                </th>
                {permissionActions.map((action) => {
                  if (!actions.includes(action)) {
                    return (
                      <td
                        key={action}
                        className="px-1 py-2 text-center text-slate-300 sm:px-2 dark:text-slate-600"
                      >
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">{t('permissions.notApplicable')}</span>
                      </td>
                    );
                  }
                  const tag = `${action}${resource}` as PermissionTag;
                  const editable = canChange(tag);
                  return (
                    <td key={action} className="px-1 py-2 text-center sm:px-2">
                      <Checkbox
                        aria-label={t('permissions.tagLabel', {
                          action: actionName(action),
                          resource: resourceName(resource),
                        })}
                        title={!disabled && !grantable(tag) ? t('permissions.notHeld') : undefined}
                        checked={selected.has(tag)}
                        disabled={!editable}
                        onChange={(event) => onChange(toggleTag(value, tag, event.target.checked))}
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
