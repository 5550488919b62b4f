import {
  brandsBinding,
  categoriesBinding,
  customersBinding,
  exchangeRatesBinding,
  locationsBinding,
  measurementUnitsBinding,
  productTagsBinding,
  taxesBinding,
  wasteCategoriesBinding,
} from '../features/catalogue/catalogue-bindings.ts';
import { rolesBinding } from '../features/roles/roles-binding.ts';
import type { ResourceBinding } from './binding.ts';

/**
 * Every resource the generic router serves, with its storage binding. A binding is typed by its
 * own definition; the router works on the general shape, hence the widening here.
 */
export const resourceBindings: readonly ResourceBinding[] = [
  rolesBinding,
  brandsBinding,
  locationsBinding,
  taxesBinding,
  measurementUnitsBinding,
  categoriesBinding,
  wasteCategoriesBinding,
  productTagsBinding,
  customersBinding,
  exchangeRatesBinding,
] as unknown as ResourceBinding[];
