import { type ProductRecord, pickLocalized, productsResource } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { RecordLabel, RecordPicker } from '../../resource-ui/record-picker.tsx';
import type { IngredientSummary } from './product-form.ts';

/** "CODE · Name", the variant's title after the name. */
export function IngredientLabel({ ingredient }: { ingredient: IngredientSummary }) {
  const { i18n } = useTranslation();
  const variant = ingredient.variantTitle ? pickLocalized(ingredient.variantTitle, i18n.language) : null;
  return (
    <RecordLabel
      code={ingredient.code}
      name={
        <>
          {pickLocalized(ingredient.name, i18n.language)}
          {variant && <span className="text-slate-600 dark:text-slate-400"> – {variant}</span>}
        </>
      }
    />
  );
}

/**
 * A searchable choice of a product (the list's search: code, name, a variant's SKU or barcode).
 * The product being edited is never offered: a recipe cannot use its own product.
 */
export function IngredientPicker({
  value,
  excludeId,
  onChoose,
  label,
  invalid,
  describedBy,
  id,
}: {
  value: IngredientSummary | null;
  excludeId: string | undefined;
  onChoose: (product: ProductRecord) => void;
  /** The accessible name of the button ("Ingredient, line 2"). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <RecordPicker<ProductRecord>
      id={id}
      definition={productsResource}
      chosen={value && <IngredientLabel ingredient={value} />}
      placeholder={t('products.recipe.chooseIngredient')}
      searchLabel={t('products.recipe.searchLabel')}
      emptyText={t('products.recipe.noMatch')}
      isOffered={(product) => product.id !== excludeId}
      onChoose={onChoose}
      label={label}
      invalid={invalid}
      describedBy={describedBy}
    />
  );
}
