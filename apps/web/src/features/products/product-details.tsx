import {
  codeFormField,
  type FormField,
  formatMoney,
  type ProductRecord,
  pickLocalized,
} from '@dukkan/contract';
import { type ReactNode, useId } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../components/ui/badge.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { cn } from '../../lib/class-names.ts';
import type { FileAccess, UploadFiles } from '../../resource-ui/form/field-props.ts';
import { ImageUploadField } from '../../resource-ui/form/image-upload-field.tsx';
import { InputField } from '../../resource-ui/form/input-field.tsx';
import { SelectField } from '../../resource-ui/form/select-field.tsx';
import { useRecordLabel } from './product-lookups.ts';

const field = (definition: FormField) => definition;

/** The details as the generic form's fields (the same controls, messages and option sources). */
const fields = {
  // Optional: left empty, the server assigns the next PRD- code.
  code: codeFormField,
  // One name or the other is enough: neither box is marked required nor optional.
  nameEn: field({
    name: 'name.en',
    type: 'text',
    label: 'resources.common.fields.nameEn',
    locale: 'en',
    disableRequiredIndicator: true,
  }),
  nameAr: field({
    name: 'name.ar',
    type: 'text',
    label: 'resources.common.fields.nameAr',
    locale: 'ar',
    disableRequiredIndicator: true,
  }),
  measurementUnitId: field({
    name: 'measurementUnitId',
    type: 'select',
    label: 'resources.products.fields.measurementUnitId',
    required: true,
    optionSource: { kind: 'resource', resource: 'measurementUnits' },
  }),
  categoryId: field({
    name: 'categoryId',
    type: 'select',
    label: 'resources.products.fields.categoryId',
    optionSource: { kind: 'resource', resource: 'categories', parentField: 'parentId' },
  }),
  wasteCategoryId: field({
    name: 'wasteCategoryId',
    type: 'select',
    label: 'resources.products.fields.wasteCategoryId',
    optionSource: { kind: 'resource', resource: 'wasteCategories', parentField: 'parentId' },
  }),
  tagIds: field({
    name: 'tagIds',
    type: 'select',
    label: 'resources.products.fields.tagIds',
    isMulti: true,
    optionSource: { kind: 'resource', resource: 'productTags' },
  }),
  status: field({
    name: 'status',
    type: 'select',
    label: 'resources.common.fields.status',
    required: true,
    options: [
      { value: 'active', label: 'resources.common.status.active' },
      { value: 'inactive', label: 'resources.common.status.inactive' },
    ],
  }),
  price: field({
    name: 'price',
    type: 'text',
    label: 'products.page.priceLabel',
    hint: 'products.page.priceHint',
    required: true,
    ltr: true,
  }),
  cost: field({
    name: 'cost',
    type: 'text',
    label: 'products.page.costLabel',
    hint: 'products.page.costHint',
    ltr: true,
  }),
  taxId: field({
    name: 'taxId',
    type: 'select',
    label: 'resources.products.fields.taxId',
    optionSource: { kind: 'resource', resource: 'taxes' },
  }),
  images: field({
    name: 'images',
    type: 'imageUpload',
    label: 'resources.products.fields.images',
    multiple: true,
  }),
};

/** "Prices include tax": a checkbox with its sentence, default on. */
function PricesIncludeTaxField({ id }: { id: string }) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  return (
    <div className="flex items-start gap-3 pt-7">
      <Checkbox
        id={id}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
        {...register('pricesIncludeTax')}
      />
      <div>
        <label htmlFor={id} className="text-sm font-semibold text-slate-700 dark:text-slate-200">
          {t('resources.products.fields.pricesIncludeTax')}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {t('products.page.pricesIncludeTaxHint')}
        </p>
      </div>
    </div>
  );
}

/**
 * The Details section's fields, inside the page's form. A new product starts active (its create
 * takes no status); a stored one's status is changed here. Images need the Files permissions
 * (spec §6), which the upload field applies. Its own price and cost only while it has no variants
 * (each variant has its own, in the grid); the tax and whether prices include it, always.
 */
export function ProductDetailsFields({
  isNew,
  hasVariants,
  uploadFiles,
  fileAccess,
}: {
  isNew: boolean;
  hasVariants: boolean;
  uploadFiles?: UploadFiles;
  fileAccess: FileAccess;
}) {
  const formId = useId();
  const id = (name: string) => `${formId}-${name}`;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <InputField field={fields.code} id={id('code')} />
      {isNew ? <div className="hidden sm:block" /> : <SelectField field={fields.status} id={id('status')} />}
      <InputField field={fields.nameEn} id={id('name-en')} />
      <InputField field={fields.nameAr} id={id('name-ar')} />
      <SelectField field={fields.measurementUnitId} id={id('unit')} />
      <SelectField field={fields.categoryId} id={id('category')} />
      <SelectField field={fields.wasteCategoryId} id={id('waste-category')} />
      <SelectField field={fields.tagIds} id={id('tags')} />
      {!hasVariants && (
        <>
          <InputField field={fields.price} id={id('price')} />
          <InputField field={fields.cost} id={id('cost')} />
        </>
      )}
      <SelectField field={fields.taxId} id={id('tax')} />
      <PricesIncludeTaxField id={id('prices-include-tax')} />
      <div className="sm:col-span-2">
        <ImageUploadField
          field={fields.images}
          id={id('images')}
          uploadFiles={uploadFiles}
          fileAccess={fileAccess}
        />
      </div>
    </div>
  );
}

const muted = <span className="text-slate-400 dark:text-slate-500">—</span>;

function RecordLabel({ resource, id }: { resource: string; id: string | null }) {
  const label = useRecordLabel(resource, id);
  return id && label ? label : muted;
}

/** One term and its value; the `div` is the only wrapper a `dl` allows around a group. */
function Entry({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0 space-y-1', className)}>
      <dt className="text-sm font-semibold text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

/** The details of a product the user may only view: text, no inputs. */
export function ProductDetailsView({ product, currency }: { product: ProductRecord; currency: string }) {
  const { t, i18n } = useTranslation();
  const name = (locale: 'en' | 'ar') => product.name.find((entry) => entry.locale === locale)?.value;
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <Entry label={t('resources.common.fields.code')}>
        <bdi className="font-mono">{product.code}</bdi>
      </Entry>
      <Entry label={t('resources.common.fields.status')}>
        <Badge tone={product.status === 'active' ? 'success' : 'neutral'}>
          {t(`resources.common.status.${product.status}`)}
        </Badge>
      </Entry>
      <Entry label={t('resources.common.fields.nameEn')}>{name('en') ?? muted}</Entry>
      <Entry label={t('resources.common.fields.nameAr')}>{name('ar') ?? muted}</Entry>
      <Entry label={t('resources.products.fields.measurementUnitId')}>
        <RecordLabel resource="measurementUnits" id={product.measurementUnitId} />
      </Entry>
      <Entry label={t('resources.products.fields.categoryId')}>
        <RecordLabel resource="categories" id={product.categoryId} />
      </Entry>
      <Entry label={t('resources.products.fields.wasteCategoryId')}>
        <RecordLabel resource="wasteCategories" id={product.wasteCategoryId} />
      </Entry>
      <Entry label={t('resources.products.fields.tagIds')}>
        {product.tagIds.length === 0 ? (
          muted
        ) : (
          <span className="flex flex-wrap gap-1">
            {product.tagIds.map((tagId) => (
              <Badge key={tagId}>
                <RecordLabel resource="productTags" id={tagId} />
              </Badge>
            ))}
          </span>
        )}
      </Entry>
      {product.variantsCount === 0 && (
        <>
          <Entry label={t('resources.products.fields.price')}>
            <span className="tabular-nums">{formatMoney(product.price, currency, i18n.language)}</span>
          </Entry>
          <Entry label={t('resources.products.fields.cost')}>
            {product.cost === null ? (
              muted
            ) : (
              <span className="tabular-nums">{formatMoney(product.cost, currency, i18n.language)}</span>
            )}
          </Entry>
        </>
      )}
      <Entry label={t('resources.products.fields.taxId')}>
        <RecordLabel resource="taxes" id={product.taxId} />
      </Entry>
      <Entry label={t('resources.products.fields.pricesIncludeTax')}>
        {t(
          product.pricesIncludeTax ? 'products.page.pricesIncludeTaxYes' : 'products.page.pricesIncludeTaxNo',
        )}
      </Entry>
      <Entry label={t('resources.products.fields.images')} className="sm:col-span-2">
        {product.images.length === 0 ? (
          muted
        ) : (
          <span className="flex flex-wrap gap-3">
            {product.images.map((url, index) => (
              <img
                key={url}
                src={url}
                alt={t('form.imageUpload.image', { index: index + 1 })}
                className="size-20 rounded-lg border border-slate-200 object-cover dark:border-slate-700"
              />
            ))}
          </span>
        )}
      </Entry>
    </dl>
  );
}

/** The product's name in the reader's language, for titles. */
export const productTitle = (product: Pick<ProductRecord, 'name'>, language: string) =>
  pickLocalized(product.name, language);
