import { type ProductMatchedVariant, pickLocalized, productsResource } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';

/** Where a product is edited (or, without editProducts, viewed). */
export const productPath = (id: string) => `/products/${encodeURIComponent(id)}`;

/**
 * Under a product's name in a searched list: the variant whose SKU or barcode the search found,
 * "Matched variant: Red, Large · SKU TSH-RL" (its title in the reader's language, its codes).
 */
export function MatchedVariantNote({ variant }: { variant: ProductMatchedVariant }) {
  const { t, i18n } = useTranslation();
  const codes = [
    { label: t('resources.products.fields.sku'), code: variant.sku },
    { label: t('resources.products.fields.barcode'), code: variant.barcode },
  ].filter((entry) => entry.code);
  return (
    <p className="mt-0.5 text-xs font-normal text-slate-600 dark:text-slate-400">
      {t('products.list.matchedVariant', { title: pickLocalized(variant.title, i18n.language) })}
      {codes.map(({ label, code }) => (
        <span key={label}>
          {' · '}
          {label} <bdi className="font-mono">{code}</bdi>
        </span>
      ))}
    </p>
  );
}

/**
 * The Products screen: the generic list of the declaration (search by code, name or a variant's
 * SKU or barcode on the server; category, tag, unit and status filters; sort; pages). A product
 * found by a variant's code names that variant under its name. A product is created and edited
 * on its own page, not in a dialog: New opens /products/add, a row's name opens /products/{id}.
 */
export function ProductsPage() {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      definition={productsResource}
      title={t('nav.products')}
      createHref="/products/add"
      primaryLink={(product) => productPath(product.id)}
      primaryNote={(product) =>
        product.matchedVariant ? <MatchedVariantNote variant={product.matchedVariant} /> : null
      }
    />
  );
}
