import {
  pickLocalized,
  type VariationTypeRecord,
  type VariationTypeValue,
  variationTypesResource,
  variationValuesResource,
} from '@dukkan/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PencilIcon } from '../../components/ui/action-icons.tsx';
import { cn } from '../../lib/class-names.ts';
import type { ResourceColumn, RowAction } from '../../resource-ui/columns.ts';
import { CompactList } from '../../resource-ui/compact-list.tsx';
import { fieldText, useDeclaredColumns } from '../../resource-ui/declared-columns.tsx';
import { recordName } from '../../resource-ui/option-sources.ts';
import { ResourceEditorDialog } from '../../resource-ui/resource-editor-dialog.tsx';
import { ResourceListPage } from '../../resource-ui/resource-list-page.tsx';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';
import { VariationTypeDialog } from './variation-type-dialog.tsx';

type TypeRow = VariationTypeRecord & { id: string };

/** A type's values as chips, in the type's order, past five folded into "+N more"; an inactive one greyed and struck through. */
function ValueChips({ values }: { values: readonly VariationTypeValue[] }) {
  const { t, i18n } = useTranslation();
  if (values.length === 0)
    return <span className="text-sm text-slate-500 dark:text-slate-400">{t('variations.noValues')}</span>;
  return (
    <CompactList
      layout="inline"
      limit={5}
      summary={values.map((value) => pickLocalized(value.name, i18n.language)).join(', ')}
      items={values.map((value) => ({
        key: value.id,
        node: (
          <span
            className={cn(
              'inline-block rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-500/20 ring-inset dark:bg-slate-800 dark:text-slate-300',
              value.status === 'inactive' && 'line-through opacity-60',
            )}
          >
            {pickLocalized(value.name, i18n.language)}
            {value.status === 'inactive' && (
              <span className="sr-only"> ({t('resources.common.status.inactive')})</span>
            )}
          </span>
        ),
      }))}
    />
  );
}

/**
 * VariantOptions (`/variations-types`): the generic list of variation types — search, pages,
 * sort, enable/disable, delete behind a confirmation — with each type's values inline, in order.
 * Editing a type edits its values in the same dialog; someone who may add, rename or delete
 * values but not edit types gets a Values action for them instead.
 */
export function VariationTypesPage() {
  const { t, i18n } = useTranslation();
  const definition = variationTypesResource;
  const declared = useDeclaredColumns<TypeRow>(definition);
  const valuesColumn: ResourceColumn<TypeRow> = {
    key: 'values',
    header: fieldText(t, definition.key, 'values'),
    cell: (type) => <ValueChips values={type.values} />,
  };
  const afterName = declared.findIndex((column) => column.key === 'name') + 1;
  const columns = [...declared.slice(0, afterName), valuesColumn, ...declared.slice(afterName)];

  const types = useResourceAccess(definition);
  const values = useResourceAccess(variationValuesResource);
  const mayChangeValues = values.allows('create') || values.allows('update') || values.allows('delete');
  const [valuesOf, setValuesOf] = useState<TypeRow | null>(null);

  const label = (type: TypeRow) => recordName(definition, type, i18n.language);
  const entity = t('resources.variationTypes.one');
  const valuesAction = (type: TypeRow): RowAction[] => [
    {
      key: 'values',
      label: t('variations.editValues'),
      icon: <PencilIcon className="size-4" />,
      onSelect: () => setValuesOf(type),
    },
  ];

  return (
    <>
      <ResourceListPage
        definition={definition}
        title={t('nav.variationTypes')}
        columns={columns}
        recordLabel={label}
        createLabel={t('resourceList.new', { entity })}
        emptyTitle={t('resources.variationTypes.empty')}
        // Deleting a type deletes its values: the values' lists change too.
        operationOptions={{ alsoInvalidateResources: ['variationValues'] }}
        extraActions={!types.allows('update') && mayChangeValues ? valuesAction : undefined}
        editor={({ record, onClose }) =>
          record ? (
            <VariationTypeDialog type={record} onClose={onClose} />
          ) : (
            <ResourceEditorDialog
              definition={definition}
              record={null}
              onClose={onClose}
              title={t('resourceList.new', { entity })}
            />
          )
        }
      />
      {valuesOf && <VariationTypeDialog type={valuesOf} onClose={() => setValuesOf(null)} />}
    </>
  );
}
