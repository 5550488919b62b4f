import {
  codeField,
  validationCodes as codes,
  emptyAsNull,
  formatMoneyInput,
  type LocalizedText,
  locales,
  localizedNameFormField,
  localizedNameFormValues,
  maxProductOptions,
  maxRecipeLines,
  type OrderType,
  type ProductInput,
  type ProductOption,
  type ProductRecord,
  type ProductUpdate,
  parseMoneyInput,
  productInputSchema,
  type RecipeLineRecord,
  type RecordStatus,
  recipeLineInputSchema,
  recordStatusField,
  referenceField,
  type VariantEdit,
} from '@dukkan/contract';
import { z } from 'zod';

/*
 * The product page's form: its values as the page edits them, the schema that turns them into the
 * API's input (built from the contract's own fields, so the rules are the server's), and what a
 * save sends — everything for a new product, only what changed for a stored one.
 */

/** What a recipe line shows of its ingredient: item code and item name (spec §3), and its unit. */
export interface IngredientSummary {
  code: string;
  name: LocalizedText;
  measurementUnitId: string;
  /** The chosen variant's title; null for the product as a whole. */
  variantTitle: LocalizedText | null;
}

export interface RecipeLineFormValues {
  /** The line's own key on the page (a stored line's id), stable while lines are added and removed. */
  lineId: string;
  ingredientProductId: string;
  ingredientVariantId: string | null;
  /** Empty while nothing is typed. */
  quantity: number | undefined;
  orderTypes: OrderType[];
  brandIds: string[];
  ingredient: IngredientSummary | null;
}

export interface OptionFormValues {
  typeId: string;
  valueIds: string[];
}

export interface ProductFormValues {
  code: string;
  name: { en: string; ar: string };
  measurementUnitId: string;
  categoryId: string;
  wasteCategoryId: string;
  tagIds: string[];
  images: string[];
  /** Its own price and cost as typed, in the member's digits (a product without variants sells at it). */
  price: string;
  cost: string;
  taxId: string;
  pricesIncludeTax: boolean;
  status: RecordStatus;
  options: OptionFormValues[];
  recipe: RecipeLineFormValues[];
}

const recipeLineFormSchema = z
  .object({
    lineId: z.string(),
    // An empty picker: the form's generic "Required".
    ingredientProductId: z.string().min(1),
    ingredientVariantId: z.string().nullable(),
    quantity: recipeLineInputSchema.shape.quantity,
    orderTypes: recipeLineInputSchema.shape.orderTypes,
    brandIds: recipeLineInputSchema.shape.brandIds,
    ingredient: z.unknown(),
  })
  .transform((line) => ({
    ingredientProductId: line.ingredientProductId,
    ingredientVariantId: line.ingredientVariantId,
    quantity: line.quantity,
    orderTypes: line.orderTypes,
    brandIds: line.brandIds,
  }));

/**
 * An amount as typed, as minor units of `currency` (`parseMoneyInput`: the member's digits, no more
 * decimals than the currency has); blank is null where `optional`, else refused.
 */
const moneyText = (currency: string, optional: boolean) =>
  z.string().transform((typed, context): number | null => {
    const parsed = parseMoneyInput(typed, currency);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', message: codes[parsed.code] });
      return z.NEVER;
    }
    if (parsed.minor === null && !optional) {
      context.addIssue({ code: 'custom', message: codes.MONEY_IS_INVALID });
      return z.NEVER;
    }
    return parsed.minor;
  });

/**
 * The form's values as the API's fields, amounts in minor units of the workspace's base currency;
 * a type with no value chosen makes no variants and is left out.
 */
export const productFormSchema = (currency: string) =>
  z.object({
    code: codeField,
    name: localizedNameFormField,
    measurementUnitId: z
      .string({ error: codes.MEASUREMENT_UNIT_IS_REQUIRED })
      .min(1, codes.MEASUREMENT_UNIT_IS_REQUIRED),
    categoryId: emptyAsNull(referenceField),
    wasteCategoryId: emptyAsNull(referenceField),
    tagIds: productInputSchema.shape.tagIds,
    images: productInputSchema.shape.images,
    price: moneyText(currency, false).transform((minor) => minor ?? 0),
    cost: moneyText(currency, true),
    taxId: emptyAsNull(referenceField),
    pricesIncludeTax: z.boolean(),
    status: recordStatusField,
    options: z
      .array(z.object({ typeId: referenceField, valueIds: z.array(referenceField) }))
      .max(maxProductOptions)
      .transform((options): ProductOption[] => options.filter((option) => option.valueIds.length > 0)),
    recipe: z.array(recipeLineFormSchema).max(maxRecipeLines),
  });
export type ProductFormOutput = z.output<ReturnType<typeof productFormSchema>>;

let lineCount = 0;
/** A key for a line added on the page (stored lines keep their id). */
const newLineId = () => `new-line-${++lineCount}`;

export const emptyRecipeLine = (): RecipeLineFormValues => ({
  lineId: newLineId(),
  ingredientProductId: '',
  ingredientVariantId: null,
  quantity: undefined,
  orderTypes: [],
  brandIds: [],
  ingredient: null,
});

const recipeLineValues = (line: RecipeLineRecord): RecipeLineFormValues => ({
  lineId: line.id,
  ingredientProductId: line.ingredientProductId,
  ingredientVariantId: line.ingredientVariantId,
  quantity: line.quantity,
  orderTypes: [...line.orderTypes],
  brandIds: [...line.brandIds],
  ingredient: { ...line.ingredient },
});

/**
 * A stored product as the form's starting values, its amounts in the member's digits; an empty
 * form for a new one (a price of 0, no cost; prices include the tax unless said otherwise).
 */
export function productFormValues(
  record: ProductRecord | undefined,
  currency = 'EGP',
  language = 'en',
): ProductFormValues {
  return {
    code: record?.code ?? '',
    name: localizedNameFormValues(record?.name),
    measurementUnitId: record?.measurementUnitId ?? '',
    categoryId: record?.categoryId ?? '',
    wasteCategoryId: record?.wasteCategoryId ?? '',
    tagIds: [...(record?.tagIds ?? [])],
    images: [...(record?.images ?? [])],
    price: formatMoneyInput(record?.price ?? 0, currency, language),
    cost: record?.cost == null ? '' : formatMoneyInput(record.cost, currency, language),
    taxId: record?.taxId ?? '',
    pricesIncludeTax: record?.pricesIncludeTax ?? true,
    status: record?.status ?? 'active',
    options: (record?.options ?? []).map((option) => ({
      typeId: option.typeId,
      valueIds: [...option.valueIds],
    })),
    recipe: (record?.recipe ?? []).map(recipeLineValues),
  };
}

/** A new product: every field of the form, and of its variants only those edited. */
export function productCreateInput(
  output: ProductFormOutput,
  variants: readonly VariantEdit[],
): ProductInput {
  const { status: _newProductsStartActive, ...fields } = output;
  return { ...fields, ...(variants.length > 0 ? { variants: [...variants] } : {}) };
}

/** A stored product's fields as the form's output would have them, to tell what a save changed. */
function storedOutput(record: ProductRecord): Omit<ProductFormOutput, 'name'> & { name: LocalizedText } {
  return {
    code: record.code,
    name: locales.flatMap((locale) => {
      const value = record.name.find((entry) => entry.locale === locale)?.value;
      return value ? [{ locale, value }] : [];
    }),
    measurementUnitId: record.measurementUnitId,
    categoryId: record.categoryId,
    wasteCategoryId: record.wasteCategoryId,
    tagIds: record.tagIds,
    images: record.images,
    price: record.price,
    cost: record.cost,
    taxId: record.taxId,
    pricesIncludeTax: record.pricesIncludeTax,
    status: record.status,
    options: record.options,
    recipe: (record.recipe ?? []).map((line) => ({
      ingredientProductId: line.ingredientProductId,
      ingredientVariantId: line.ingredientVariantId,
      quantity: line.quantity,
      orderTypes: line.orderTypes,
      brandIds: line.brandIds,
    })),
  };
}

/**
 * A stored product's update: only the fields that differ from the record (`recipe` replaces the
 * whole recipe when it changed), and only the variants edited.
 */
export function productUpdateInput(
  output: ProductFormOutput,
  record: ProductRecord,
  variants: readonly VariantEdit[],
): ProductUpdate {
  const before = storedOutput(record) as Record<string, unknown>;
  const update: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(output)) {
    if (JSON.stringify(value) !== JSON.stringify(before[field])) update[field] = value;
  }
  if (variants.length > 0) update.variants = [...variants];
  return update as ProductUpdate;
}
