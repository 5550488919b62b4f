import {
  codeField,
  type LocalizedName,
  localizedNameFormField,
  localizedNameFormValues,
  pickLocalized,
  tagFor,
  type VariationTypeRecord,
  type VariationTypeValue,
  variationValueFormFields,
  variationValuesResource,
} from '@dukkan/contract';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ArrowDownIcon, ArrowUpIcon, PencilIcon, TrashIcon } from '../../components/ui/action-icons.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { ResourceForm } from '../../resource-ui/form/resource-form.tsx';
import {
  type OperationOptions,
  useOperationRunner,
  useResourceAccess,
  useResourceMutations,
} from '../../resource-ui/use-resource.ts';
import { placeNameRefusal, textsOf } from './name-refusals.ts';

/**
 * A value's form: its code (left empty, the server derives one from the type's code) and its text
 * in each language; the type is the one being edited.
 */
const valueFormSchema = z.object({ code: codeField, name: localizedNameFormField });
type ValueFormOutput = z.output<typeof valueFormSchema>;

/** A change of values also changes their type's record (its `values`). */
const alsoTheTypes: OperationOptions = { alsoInvalidateResources: ['variationTypes'] };
/** A refused delete is said once, in its confirmation: no failure toast. */
const deletionOptions: OperationOptions = { ...alsoTheTypes, failureShownByCaller: true };

const iconButton =
  'grid size-9 place-items-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

/**
 * The values of one type, edited in place, each change through the variation-values API right
 * away: add (text in each language and a code, or none to have one derived from the type's; it
 * goes last), rename, move up or down (the new
 * order's positions are sent for every value whose place changed) and delete after a
 * confirmation. Each control shows only with its permission (add, edit, delete Variations). The
 * server's refusals show under the box they concern, in the reader's language.
 */
export function VariationValuesEditor({ type }: { type: VariationTypeRecord }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const { allows } = useResourceAccess(variationValuesResource);
  const mayEdit = allows('update');
  const mayDelete = allows('delete');
  const mutations = useResourceMutations(variationValuesResource, alsoTheTypes);
  const deletion = useResourceMutations(variationValuesResource, deletionOptions);
  const run = useOperationRunner(variationValuesResource, alsoTheTypes);

  // While a new order is being saved it is shown instead of the stored one.
  const [pendingOrder, setPendingOrder] = useState<string[] | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<VariationTypeValue | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: 'up' | 'down' } | null>(null);
  const moveButtons = useRef(new Map<string, HTMLButtonElement>());

  const stored = type.values;
  const values = pendingOrder
    ? pendingOrder
        .map((id) => stored.find((value) => value.id === id))
        .filter((value): value is VariationTypeValue => value !== undefined)
    : stored;
  const nameOf = (value: { name: LocalizedName }) => pickLocalized(value.name, i18n.language);
  const typeName = pickLocalized(type.name, i18n.language);

  // A moved value keeps the focus on its button (moved in the page with it); at an end, where that
  // button is disabled, on the other one.
  useLayoutEffect(() => {
    if (!focusAfterMove) return;
    const { id, direction } = focusAfterMove;
    const other = direction === 'up' ? 'down' : 'up';
    const same = moveButtons.current.get(`${id}:${direction}`);
    (same && !same.disabled ? same : moveButtons.current.get(`${id}:${other}`))?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const move = async (index: number, direction: 'up' | 'down') => {
    if (pendingOrder) return;
    const target = direction === 'up' ? index - 1 : index + 1;
    const moved = values[index];
    if (!moved || target < 0 || target >= values.length) return;
    const order = values.map((value) => value.id);
    [order[index], order[target]] = [order[target]!, order[index]!];
    setPendingOrder(order);
    setFocusAfterMove({ id: moved.id, direction });
    setAnnouncement(
      t('variations.moved', { name: nameOf(moved), position: target + 1, count: values.length }),
    );
    // Every place from the first to the last: values stored with equal or sparse positions get
    // distinct ones, so the order holds whatever was stored before.
    const changes = order
      .map((id, position) => ({ id, position }))
      .filter(({ id, position }) => stored.find((value) => value.id === id)?.position !== position);
    try {
      await run('update', tagFor(variationValuesResource, 'update'), async (workspaceId) => {
        for (const change of changes) {
          await apiRequest(`/${variationValuesResource.path}/${encodeURIComponent(change.id)}`, {
            method: 'PATCH',
            body: { position: change.position },
            query: { workspaceId },
          });
        }
      });
    } catch {
      // The toast says why; the stored order shows again.
    } finally {
      setPendingOrder(null);
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          {t('variations.values')}
        </h3>
        {(allows('create') || mayEdit || mayDelete) && (
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {t('variations.savedRightAway')}
          </p>
        )}
      </div>

      {values.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {t('variations.noValues')}
        </p>
      ) : (
        <ol
          aria-label={t('variations.valuesOf', { type: typeName })}
          aria-busy={pendingOrder ? true : undefined}
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {values.map((value, index) => {
            const name = nameOf(value);
            return (
              <li key={value.id} className="px-3 py-2">
                {renaming === value.id ? (
                  <RenameValueForm
                    value={value}
                    siblings={stored.filter((other) => other.id !== value.id)}
                    onDone={() => setRenaming(null)}
                    save={(input) => mutations.update.mutateAsync({ id: value.id, input })}
                  />
                ) : (
                  <div className="flex items-center gap-3">
                    <span aria-hidden="true" className="w-6 text-xs text-slate-400 tabular-nums">
                      {index + 1}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="font-semibold">{name}</span>{' '}
                      <bdi className="font-mono text-xs text-slate-500 dark:text-slate-400">{value.code}</bdi>
                      {value.status === 'inactive' && (
                        <Badge className="ms-2">{t('resources.common.status.inactive')}</Badge>
                      )}
                    </span>
                    {mayEdit && (
                      <>
                        <button
                          type="button"
                          ref={(element) => {
                            if (element) moveButtons.current.set(`${value.id}:up`, element);
                            else moveButtons.current.delete(`${value.id}:up`);
                          }}
                          className={iconButton}
                          disabled={index === 0}
                          aria-disabled={pendingOrder ? true : undefined}
                          aria-label={t('variations.moveUp', { name })}
                          title={t('variations.moveUp', { name })}
                          onClick={() => void move(index, 'up')}
                        >
                          <ArrowUpIcon className="size-4" />
                        </button>
                        <button
                          type="button"
                          ref={(element) => {
                            if (element) moveButtons.current.set(`${value.id}:down`, element);
                            else moveButtons.current.delete(`${value.id}:down`);
                          }}
                          className={iconButton}
                          disabled={index === values.length - 1}
                          aria-disabled={pendingOrder ? true : undefined}
                          aria-label={t('variations.moveDown', { name })}
                          title={t('variations.moveDown', { name })}
                          onClick={() => void move(index, 'down')}
                        >
                          <ArrowDownIcon className="size-4" />
                        </button>
                        <button
                          type="button"
                          className={iconButton}
                          aria-label={t('variations.rename', { name })}
                          title={t('variations.rename', { name })}
                          onClick={() => setRenaming(value.id)}
                        >
                          <PencilIcon className="size-4" />
                        </button>
                      </>
                    )}
                    {mayDelete && (
                      <button
                        type="button"
                        className={`${iconButton} text-red-600 hover:text-red-700 dark:text-red-400`}
                        aria-label={t('variations.delete', { name })}
                        title={t('variations.delete', { name })}
                        onClick={() => setDeleting(value)}
                      >
                        <TrashIcon className="size-4" />
                      </button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      {allows('create') && (
        <NewValueForm
          siblings={stored}
          save={(input) => mutations.create.mutateAsync({ ...input, typeId: type.id })}
        />
      )}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={deleting ? t('resourceList.deleteTitle', { name: nameOf(deleting) }) : ''}
        keepLabel={deleting ? t('resourceList.keep', { name: nameOf(deleting) }) : ''}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? deletion.remove.mutateAsync({ id: deleting.id }) : Promise.resolve())}
      >
        {deleting ? t('resourceList.deleteBody', { name: nameOf(deleting) }) : null}
      </ConfirmDialog>
    </section>
  );
}

/** A new value of the type: saved, then the form is emptied for the next one. */
function NewValueForm({
  siblings,
  save,
}: {
  siblings: readonly VariationTypeValue[];
  save: (input: ValueFormOutput) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/50"
    >
      <h4 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        {t('variations.newValue')}
      </h4>
      <ResourceForm
        fields={variationValueFormFields}
        schema={valueFormSchema}
        submitLabel={t('variations.addValue')}
        onSubmit={async (input, form) => {
          try {
            await save(input);
            form.reset();
            form.setFocus('code');
          } catch (error) {
            placeNameRefusal(error, form.setError, input.name, textsOf(siblings));
          }
        }}
      />
    </section>
  );
}

/** A value's code and texts, edited where the value is listed. */
function RenameValueForm({
  value,
  siblings,
  save,
  onDone,
}: {
  value: VariationTypeValue;
  siblings: readonly VariationTypeValue[];
  save: (input: ValueFormOutput) => Promise<unknown>;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  return (
    <fieldset className="py-1">
      <legend className="sr-only">
        {t('variations.rename', { name: pickLocalized(value.name, i18n.language) })}
      </legend>
      <ResourceForm
        id={formId}
        fields={variationValueFormFields}
        schema={valueFormSchema}
        defaultValues={{ code: value.code, name: localizedNameFormValues(value.name) }}
        onSubmit={async (input, form) => {
          try {
            await save(input);
            onDone();
          } catch (error) {
            placeNameRefusal(error, form.setError, input.name, textsOf(siblings));
          }
        }}
        footer={
          <div className="flex justify-end gap-2">
            <Button variant="secondary" size="sm" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" size="sm">
              {t('common.save')}
            </Button>
          </div>
        }
      />
    </fieldset>
  );
}
