import {
  joinList,
  type LocalizedText,
  maxProductOptions,
  type ProductRecord,
  pickLocalized,
  type VariationTypeRecord,
  type VariationTypeValue,
  variationTypesResource,
} from '@dukkan/contract';
import { type ReactNode, useId, useState } from 'react';
import { useController, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '../../components/ui/action-icons.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Input } from '../../components/ui/input.tsx';
import { NewRecordButton, useMayCreate } from '../../resource-ui/new-record-button.tsx';
import { RecordPicker } from '../../resource-ui/record-picker.tsx';
import type { ProductFormValues } from './product-form.ts';

/** Past this many values a type's list gets a filter box. */
const longListSize = 12;
/** At most this many values are listed at once; the filter finds the others. */
const shownLimit = 60;

/** The values a product may choose: the active ones, and any inactive one it already has. */
const choosableValues = (type: VariationTypeRecord, chosen: readonly string[]) =>
  type.values.filter((value) => value.status === 'active' || chosen.includes(value.id));

/** One chosen type: its values as checkboxes (kept in the type's order), All, Clear and Remove. */
function OptionValues({
  index,
  type,
  onRemove,
}: {
  index: number;
  type: VariationTypeRecord | undefined;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const { field } = useController<ProductFormValues, `options.${number}.valueIds`>({
    name: `options.${index}.valueIds`,
  });
  const chosen = field.value;
  const typeName = type ? pickLocalized(type.name, i18n.language) : '…';
  const values = type ? choosableValues(type, chosen) : [];
  const inTypeOrder = (ids: ReadonlySet<string>) =>
    values.filter((value) => ids.has(value.id)).map((value) => value.id);
  const toggle = (valueId: string, checked: boolean) => {
    const next = new Set(chosen);
    if (checked) next.add(valueId);
    else next.delete(valueId);
    field.onChange(inTypeOrder(next));
  };
  const needle = query.trim().toLocaleLowerCase();
  const label = (value: VariationTypeValue) => {
    const name = pickLocalized(value.name, i18n.language);
    return value.status === 'active' ? name : t('products.options.inactiveValue', { value: name });
  };
  const matching =
    values.length > longListSize && needle
      ? values.filter((value) => label(value).toLocaleLowerCase().includes(needle))
      : values;
  const shown = matching.slice(0, shownLimit);

  return (
    <fieldset
      className="space-y-2 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
      aria-describedby={chosen.length === 0 ? `${id}-none` : undefined}
    >
      <legend className="sr-only">{t('products.options.valuesOf', { type: typeName })}</legend>
      <div className="flex flex-wrap items-center gap-2">
        {/* The legend names the group for screen readers; this is its visible twin. */}
        <span aria-hidden="true" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          {typeName}
        </span>
        <div className="ms-auto flex flex-wrap items-center gap-1">
          <Button
            variant="ghost"
            size="sm"
            disabled={values.length === 0}
            onClick={() => field.onChange(values.map((value) => value.id))}
            aria-label={t('products.options.chooseAllOf', { type: typeName })}
          >
            {t('products.options.chooseAll')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={chosen.length === 0}
            onClick={() => field.onChange([])}
            aria-label={t('products.options.clearOf', { type: typeName })}
          >
            {t('products.options.clear')}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            onClick={onRemove}
            aria-label={t('products.options.removeType', { type: typeName })}
            title={t('products.options.removeType', { type: typeName })}
            className="size-8 text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
          >
            <TrashIcon className="size-4" />
          </Button>
        </div>
      </div>
      {values.length > longListSize && (
        <Input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={t('form.filterOptions')}
          aria-label={t('form.filterOptionsOf', { field: typeName })}
        />
      )}
      {type && values.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t('products.options.noValues', { type: typeName })}
        </p>
      ) : (
        <div className="flex max-h-56 flex-wrap gap-x-4 gap-y-1.5 overflow-y-auto">
          {shown.map((value) => (
            <label
              key={value.id}
              htmlFor={`${id}-${value.id}`}
              className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
            >
              <Checkbox
                id={`${id}-${value.id}`}
                checked={chosen.includes(value.id)}
                onChange={(event) => toggle(value.id, event.target.checked)}
              />
              {label(value)}
            </label>
          ))}
        </div>
      )}
      {matching.length > shown.length && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t('products.options.moreValues', { shown: shown.length, count: matching.length })}
        </p>
      )}
      {chosen.length === 0 && values.length > 0 && (
        <p id={`${id}-none`} className="text-xs text-amber-700 dark:text-amber-400">
          {t('products.options.noValueChosen', { type: typeName })}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The variation types the product uses (any number up to the contract's limit, no limit of
 * three) and, per type, the values chosen. The types come with their values inline
 * (`/api/variation-types`). "New variation type" (with its values, typed one per line) adds the
 * type it makes with every value chosen: it was made for this product.
 */
export function ProductOptionsEditor({
  listed,
  types,
  canView,
  isLoading,
}: {
  listed: readonly VariationTypeRecord[];
  types: ReadonlyMap<string, VariationTypeRecord>;
  canView: boolean;
  isLoading: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { control } = useFormContext<ProductFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'options', keyName: 'fieldKey' });
  const available = listed.filter((type) => !fields.some((option) => option.typeId === type.id));
  const full = fields.length >= maxProductOptions;
  const mayCreateTypes = useMayCreate(variationTypesResource);
  /** A chosen type is added with none of its values; one just made with "New …", with all of them. */
  const addType = (type: VariationTypeRecord, { created }: { created: boolean }) =>
    append({
      typeId: type.id,
      valueIds: created
        ? type.values.filter((value) => value.status === 'active').map((value) => value.id)
        : [],
    });
  /** "New variation type" where there is no type left to choose. */
  const newType = (
    <NewRecordButton
      resource={variationTypesResource.key}
      fieldId={`${id}-type`}
      onCreated={(type) => addType(type as VariationTypeRecord, { created: true })}
    />
  );

  let adder: ReactNode;
  if (!canView)
    adder = (
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.options.cannotViewTypes')}</p>
    );
  else if (isLoading)
    adder = (
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.options.loadingTypes')}</p>
    );
  else if (listed.length === 0)
    adder = (
      <div className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t(mayCreateTypes ? 'products.options.noTypesYet' : 'products.options.noTypes')}
        </p>
        {newType}
      </div>
    );
  else if (full)
    adder = (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t('products.options.maxTypes', { max: maxProductOptions })}
      </p>
    );
  else if (available.length === 0)
    adder = (
      <div className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.options.allTypesChosen')}</p>
        {newType}
      </div>
    );
  else
    adder = (
      <div className="min-w-48 space-y-1.5 sm:max-w-xs">
        <label htmlFor={`${id}-type`} className="text-sm font-semibold text-slate-700 dark:text-slate-200">
          {t('products.options.typeToAdd')}
        </label>
        <RecordPicker<VariationTypeRecord>
          id={`${id}-type`}
          definition={variationTypesResource}
          chosen={null}
          placeholder={t('products.options.chooseType')}
          searchLabel={t('products.options.searchTypes')}
          isOffered={(type) => !fields.some((option) => option.typeId === type.id)}
          onChoose={addType}
          label={t('products.options.typeToAdd')}
        />
      </div>
    );

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.options.intro')}</p>
      {fields.map((option, index) => (
        <OptionValues
          key={option.fieldKey}
          index={index}
          type={types.get(option.typeId)}
          onRemove={() => remove(index)}
        />
      ))}
      {adder}
    </div>
  );
}

/** The chosen types and values of a product the user may only view. */
export function ProductOptionsView({
  product,
  types,
}: {
  product: ProductRecord;
  types: ReadonlyMap<string, VariationTypeRecord>;
}) {
  const { i18n } = useTranslation();
  if (product.options.length === 0) return null;
  return (
    <dl className="space-y-1.5 text-sm">
      {product.options.map((option) => {
        const type = types.get(option.typeId);
        // The product's own answer names its types and values for a reader who cannot list them.
        const named = (id: string, name: LocalizedText | undefined) => {
          const text = name ?? product.references?.[id]?.name;
          return text ? pickLocalized(text, i18n.language) : '…';
        };
        const values = option.valueIds.map((valueId) =>
          named(valueId, type?.values.find((candidate) => candidate.id === valueId)?.name),
        );
        return (
          <div key={option.typeId} className="flex flex-wrap gap-x-2">
            <dt className="font-semibold text-slate-700 dark:text-slate-300">
              {named(option.typeId, type?.name)}
            </dt>
            <dd className="text-slate-900 dark:text-slate-100">{joinList(values, i18n.language)}</dd>
          </div>
        );
      })}
    </dl>
  );
}
