import { productsResource, recordStatuses } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';

/**
 * The products as the list shows them: the declaration, and its status as a filter too (every
 * list with a status takes `?status=`; the declaration's filters are those of its own fields).
 */
const listedProducts: typeof productsResource = {
  ...productsResource,
  filters: [...productsResource.filters, { field: 'status', kind: 'enum' as const, values: recordStatuses }],
};

/** Where a product is edited (or, without editProducts, viewed). */
export const productPath = (id: string) => `/products/${encodeURIComponent(id)}`;

/**
 * The Products screen: the generic list of the declaration (search by code, name or a variant's
 * SKU or barcode on the server; category, tag, unit and status filters; sort; pages). A product
 * is created and edited on its own page, not in a dialog: New opens /products/add, a row's name
 * opens /products/{id}.
 */
export function ProductsPage() {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      definition={listedProducts}
      title={t('nav.products')}
      createHref="/products/add"
      primaryLink={(product) => productPath(product.id)}
    />
  );
}
