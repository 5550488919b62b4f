import { variationValuesResource } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';

/**
 * VariantValues (`/options`): every value of every type on the generic screen — its type named in
 * a column and offered as a filter, searchable, sortable by its place — from the declaration.
 */
export function VariationValuesPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={variationValuesResource} title={t('nav.variationValues')} />;
}
