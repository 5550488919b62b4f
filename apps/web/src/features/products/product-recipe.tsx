import {
  joinList,
  listSeparator,
  maxRecipeLines,
  numberFormat,
  type OrderType,
  orderTypes,
  type ProductRecord,
  pickLocalized,
  productsResource,
  type RecipeLineRecord,
  type ValidationIssue,
} from '@dukkan/contract';
import { useId } from 'react';
import { useController, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PlusIcon, TrashIcon } from '../../components/ui/action-icons.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { ChevronDownIcon } from '../../components/ui/icons.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { NumberInput, numberFromInput } from '../../components/ui/number-input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { Select } from '../../components/ui/select.tsx';
import { cn } from '../../lib/class-names.ts';
import { useFieldError } from '../../resource-ui/form/field-props.ts';
import { useFormMessageText } from '../../resource-ui/form/form-messages.ts';
import { useRecordOptions } from '../../resource-ui/option-sources.ts';
import { useResourceRecord } from '../../resource-ui/use-resource.ts';
import { IngredientLabel, IngredientPicker } from './ingredient-picker.tsx';
import { emptyRecipeLine, type ProductFormValues, type RecipeLineFormValues } from './product-form.ts';
import type { RecipeLineField } from './product-issues.ts';
import { useIssueText, useRecordLabel, useUnitSymbol } from './product-lookups.ts';

/** A refused save's issues of one line, by the control they are about. */
type LineIssues = readonly { field: RecipeLineField; issue: ValidationIssue }[];

const labelClassName = 'text-sm font-semibold text-slate-700 dark:text-slate-200';

/** Messages under a control: the form's own (a code) and the server's (with their placeholders). */
function Messages({ id, formError, issues }: { id: string; formError?: string; issues: LineIssues }) {
  const formText = useFormMessageText();
  const issueText = useIssueText();
  if (!formError && issues.length === 0) return null;
  return (
    <div id={id} className="space-y-0.5 text-sm text-red-600 dark:text-red-400">
      {formError && <p>{formText(formError)}</p>}
      {issues.map(({ issue }) => (
        <p key={`${issue.path}-${issue.message}`}>{issueText(issue)}</p>
      ))}
    </div>
  );
}

/** The brands a line is limited to (none: every brand), as checkboxes in a popover. */
function BrandsChooser({
  name,
  id,
  describedBy,
}: {
  name: `recipe.${number}.brandIds`;
  id: string;
  describedBy?: string;
}) {
  const { t, i18n } = useTranslation();
  const { field } = useController<ProductFormValues, typeof name>({ name });
  const { options, refusal } = useRecordOptions('brands');
  const chosen = field.value;
  const names = chosen
    .map((brandId) => options.find((option) => option.value === brandId)?.label)
    .filter(Boolean);
  const summary =
    chosen.length === 0
      ? t('products.recipe.allBrands')
      : names.length === chosen.length
        ? joinList(names as string[], i18n.language)
        : t('products.recipe.brandsChosen', { count: chosen.length });
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          aria-describedby={describedBy}
          className={cn(controlClassName, 'flex h-10 items-center gap-2 text-start')}
        >
          <span className="min-w-0 flex-1 truncate">{summary}</span>
          <ChevronDownIcon className="size-4 shrink-0 text-slate-500" />
        </button>
      </PopoverTrigger>
      <PopoverContent className="max-h-72 w-64 overflow-y-auto p-2" aria-label={t('products.recipe.brands')}>
        {options.length === 0 ? (
          <p className="px-1.5 py-1 text-sm text-slate-600 dark:text-slate-400">
            {refusal ?? t('products.recipe.noBrands')}
          </p>
        ) : (
          <fieldset>
            <legend className="sr-only">{t('products.recipe.brands')}</legend>
            {options.map((option) => (
              <label
                key={option.value}
                htmlFor={`${id}-${option.value}`}
                className="flex cursor-pointer items-center gap-2 rounded px-1.5 py-1.5 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
              >
                <Checkbox
                  id={`${id}-${option.value}`}
                  checked={chosen.includes(option.value)}
                  onChange={(event) =>
                    field.onChange(
                      event.target.checked
                        ? [...chosen, option.value]
                        : chosen.filter((brandId) => brandId !== option.value),
                    )
                  }
                />
                {option.label}
              </label>
            ))}
          </fieldset>
        )}
      </PopoverContent>
    </Popover>
  );
}

/** The order types a line is limited to; none chosen means all of them. */
function OrderTypesChooser({
  name,
  describedBy,
}: {
  name: `recipe.${number}.orderTypes`;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { field } = useController<ProductFormValues, typeof name>({ name });
  const chosen = field.value;
  return (
    <fieldset className="min-w-0 space-y-1.5" aria-describedby={describedBy}>
      <legend className={labelClassName}>{t('products.recipe.orderTypes')}</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1">
        {orderTypes.map((orderType) => (
          <label key={orderType} htmlFor={`${id}-${orderType}`} className="flex items-center gap-1.5 text-sm">
            <Checkbox
              id={`${id}-${orderType}`}
              checked={chosen.includes(orderType)}
              onChange={(event) =>
                field.onChange(
                  orderTypes.filter((type) =>
                    type === orderType ? event.target.checked : chosen.includes(type),
                  ) as OrderType[],
                )
              }
            />
            {t(`products.recipe.orderType.${orderType}`)}
          </label>
        ))}
      </div>
      {chosen.length === 0 && (
        <p className="text-xs text-slate-500 dark:text-slate-400">{t('products.recipe.noneMeansAll')}</p>
      )}
    </fieldset>
  );
}

/** The whole ingredient or one of its variants, once the ingredient's variants are known. */
function VariantChooser({ index, productId }: { index: number; productId: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { setValue, getValues } = useFormContext<ProductFormValues>();
  const variantId = useWatch<ProductFormValues, `recipe.${number}.ingredientVariantId`>({
    name: `recipe.${index}.ingredientVariantId`,
  });
  const ingredient = useResourceRecord(productsResource, productId).data as ProductRecord | undefined;
  const variants = ingredient?.variants ?? [];
  if (variants.length === 0) return null;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="sr-only">
        {t('products.recipe.variant')}
      </label>
      <Select
        id={id}
        value={variantId ?? ''}
        onChange={(event) => {
          const chosen = variants.find((variant) => variant.id === event.target.value) ?? null;
          const summary = getValues(`recipe.${index}.ingredient`);
          setValue(`recipe.${index}.ingredientVariantId`, chosen?.id ?? null, { shouldDirty: true });
          if (summary)
            setValue(
              `recipe.${index}.ingredient`,
              { ...summary, variantTitle: chosen?.title ?? null },
              {
                shouldDirty: true,
              },
            );
        }}
      >
        <option value="">{t('products.recipe.wholeProduct')}</option>
        {variants.map((variant) => (
          <option key={variant.id} value={variant.id}>
            {pickLocalized(variant.title, i18n.language)}
          </option>
        ))}
      </Select>
    </div>
  );
}

function RecipeLineEditor({
  index,
  productId,
  issues,
  onRemove,
}: {
  index: number;
  productId: string | undefined;
  issues: LineIssues;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const number = index + 1;
  const { register, setValue, formState } = useFormContext<ProductFormValues>();
  const line = useWatch<ProductFormValues, `recipe.${number}`>({ name: `recipe.${index}` }) as
    | RecipeLineFormValues
    | undefined;
  const symbol = useUnitSymbol(line?.ingredient?.measurementUnitId);
  const ingredientError = useFieldError(`recipe.${index}.ingredientProductId`);
  const quantityError = useFieldError(`recipe.${index}.quantity`);
  const about = (field: RecipeLineField) => issues.filter((entry) => entry.field === field);
  const ingredientIssues = [...about('ingredient'), ...about(null)];
  const quantityIssues = about('quantity');
  const describe = (name: string, shown: boolean) => (shown ? `${id}-${name}-messages` : undefined);
  const ingredientDescribedBy = describe(
    'ingredient',
    Boolean(ingredientError) || ingredientIssues.length > 0,
  );
  const quantityDescribedBy = describe('quantity', Boolean(quantityError) || quantityIssues.length > 0);

  const choose = (product: ProductRecord) => {
    const options = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    setValue(`recipe.${index}.ingredientProductId`, product.id, options);
    setValue(`recipe.${index}.ingredientVariantId`, null, options);
    setValue(
      `recipe.${index}.ingredient`,
      {
        code: product.code,
        name: product.name,
        measurementUnitId: product.measurementUnitId,
        variantTitle: null,
      },
      options,
    );
  };

  return (
    <li>
      <fieldset
        aria-invalid={ingredientIssues.length + quantityIssues.length > 0 || undefined}
        className={cn(
          'grid grid-cols-1 gap-3 rounded-xl border p-3 sm:grid-cols-2 lg:grid-cols-[minmax(14rem,2fr)_minmax(8rem,1fr)_minmax(10rem,1.2fr)_minmax(9rem,1fr)_auto] lg:items-start',
          issues.length > 0 || ingredientError || quantityError
            ? 'border-red-300 dark:border-red-800'
            : 'border-slate-200 dark:border-slate-700',
        )}
      >
        <legend className="sr-only">{t('products.recipe.line', { number })}</legend>
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={`${id}-ingredient`} className={labelClassName}>
            {t('products.recipe.ingredient')}
          </label>
          <IngredientPicker
            id={`${id}-ingredient`}
            value={line?.ingredient ?? null}
            excludeId={productId}
            onChoose={choose}
            label={`${t('products.recipe.ingredient')} (${t('products.recipe.line', { number })})`}
            invalid={Boolean(ingredientDescribedBy)}
            describedBy={ingredientDescribedBy}
          />
          {line?.ingredientProductId && <VariantChooser index={index} productId={line.ingredientProductId} />}
          <Messages id={`${id}-ingredient-messages`} formError={ingredientError} issues={ingredientIssues} />
        </div>
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={`${id}-quantity`} className={labelClassName}>
            {t('products.recipe.quantity')}
          </label>
          <div className="flex items-center gap-2">
            <NumberInput
              id={`${id}-quantity`}
              aria-invalid={quantityDescribedBy ? true : undefined}
              aria-describedby={quantityDescribedBy}
              {...register(`recipe.${index}.quantity`, { setValueAs: numberFromInput })}
            />
            {symbol && <bdi className="shrink-0 text-sm text-slate-600 dark:text-slate-400">{symbol}</bdi>}
          </div>
          <Messages id={`${id}-quantity-messages`} formError={quantityError} issues={quantityIssues} />
        </div>
        <div className="min-w-0">
          <OrderTypesChooser
            name={`recipe.${index}.orderTypes`}
            describedBy={describe('orderTypes', about('orderTypes').length > 0)}
          />
          <Messages id={`${id}-orderTypes-messages`} issues={about('orderTypes')} />
        </div>
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={`${id}-brands`} className={labelClassName}>
            {t('products.recipe.brands')}
          </label>
          <BrandsChooser
            name={`recipe.${index}.brandIds`}
            id={`${id}-brands`}
            describedBy={describe('brandIds', about('brandIds').length > 0)}
          />
          <Messages id={`${id}-brandIds-messages`} issues={about('brandIds')} />
        </div>
        <div className="flex justify-end lg:pt-7">
          <Button
            variant="ghost"
            size="icon"
            onClick={onRemove}
            aria-label={t('products.recipe.removeLine', { number })}
            title={t('products.recipe.removeLine', { number })}
            className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
          >
            <TrashIcon className="size-4" />
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

/**
 * The recipe as editable lines: an ingredient (a product, or one of its variants), a quantity in
 * the ingredient's unit, the order types and brands it applies to (none: all). A refused save's
 * issues show on the line they name (a loop of recipes names its products).
 */
export function RecipeEditor({
  productId,
  issues,
}: {
  productId: string | undefined;
  issues: ReadonlyMap<string, LineIssues>;
}) {
  const { t } = useTranslation();
  const { control } = useFormContext<ProductFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'recipe', keyName: 'fieldKey' });
  const full = fields.length >= maxRecipeLines;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.recipe.intro')}</p>
      {fields.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {t('products.recipe.empty')}
        </p>
      ) : (
        <ol className="space-y-3" aria-label={t('products.page.recipe')}>
          {fields.map((line, index) => (
            <RecipeLineEditor
              key={line.fieldKey}
              index={index}
              productId={productId}
              issues={issues.get(line.lineId) ?? []}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" disabled={full} onClick={() => append(emptyRecipeLine())}>
          <PlusIcon className="size-4" />
          {t('products.recipe.add')}
        </Button>
        {full && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t('products.recipe.maxLines', { max: maxRecipeLines })}
          </p>
        )}
      </div>
    </div>
  );
}

function BrandNames({ ids }: { ids: readonly string[] }) {
  const { t, i18n } = useTranslation();
  const separator = listSeparator(i18n.language);
  if (ids.length === 0) return <>{t('products.recipe.allBrands')}</>;
  return (
    <>
      {ids.map((brandId, index) => (
        <span key={brandId}>
          {index > 0 && separator}
          <BrandName id={brandId} />
        </span>
      ))}
    </>
  );
}

function BrandName({ id }: { id: string }) {
  return <>{useRecordLabel('brands', id) ?? '…'}</>;
}

function QuantityCell({ line }: { line: RecipeLineRecord }) {
  const { i18n } = useTranslation();
  const symbol = useUnitSymbol(line.ingredient.measurementUnitId);
  const quantity = numberFormat(i18n.language, { maximumFractionDigits: 6 }).format(line.quantity);
  return (
    <span className="whitespace-nowrap tabular-nums">
      {quantity} {symbol && <bdi>{symbol}</bdi>}
    </span>
  );
}

/** The recipe of a product the user may only view: item code, item name, quantity, order types, brands. */
export function RecipeView({ lines }: { lines: readonly RecipeLineRecord[] }) {
  const { t, i18n } = useTranslation();
  if (lines.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.recipe.empty')}</p>;
  const header = 'px-3 py-2 text-start text-xs font-semibold text-slate-600 dark:text-slate-400';
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-sm">
        <caption className="sr-only">{t('products.page.recipe')}</caption>
        <thead className="border-b border-slate-200 dark:border-slate-800">
          <tr>
            <th scope="col" className={header}>
              {t('products.recipe.ingredient')}
            </th>
            <th scope="col" className={header}>
              {t('products.recipe.quantity')}
            </th>
            <th scope="col" className={header}>
              {t('products.recipe.orderTypes')}
            </th>
            <th scope="col" className={header}>
              {t('products.recipe.brands')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {lines.map((line) => (
            <tr key={line.id}>
              <th scope="row" className="px-3 py-2 text-start font-normal">
                <IngredientLabel ingredient={line.ingredient} />
              </th>
              <td className="px-3 py-2">
                <QuantityCell line={line} />
              </td>
              <td className="px-3 py-2">
                {line.orderTypes.length === 0
                  ? t('products.recipe.allOrderTypes')
                  : joinList(
                      line.orderTypes.map((type) => t(`products.recipe.orderType.${type}`)),
                      i18n.language,
                    )}
              </td>
              <td className="px-3 py-2">
                <BrandNames ids={line.brandIds} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
