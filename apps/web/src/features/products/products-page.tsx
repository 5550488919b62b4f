import { productsResource } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';

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
      definition={productsResource}
      title={t('nav.products')}
      createHref="/products/add"
      primaryLink={(product) => productPath(product.id)}
    />
  );
}
