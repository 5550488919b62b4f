import {
  brandsResource,
  customersResource,
  exchangeRatesResource,
  locationsResource,
  measurementUnitsResource,
  productTagsResource,
  taxesResource,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';

/** The catalogue's simple screens: each is its declaration on the generic screen. */
export function BrandsPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={brandsResource} title={t('nav.brands')} />;
}

export function LocationsPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={locationsResource} title={t('nav.locations')} />;
}

export function TaxesPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={taxesResource} title={t('nav.taxes')} />;
}

export function MeasurementUnitsPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={measurementUnitsResource} title={t('nav.measurementUnits')} />;
}

export function ProductTagsPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={productTagsResource} title={t('nav.productTags')} />;
}

export function CustomersPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={customersResource} title={t('nav.customers')} />;
}

export function ExchangeRatesPage() {
  const { t } = useTranslation();
  return <ResourceScreen definition={exchangeRatesResource} title={t('nav.exchangeRates')} />;
}
