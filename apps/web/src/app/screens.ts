import type { PermissionRequirement } from '@dukkan/contract';
import type en from '../i18n/locales/signed-in/en.json';

export type ScreenTitleKey = Exclude<keyof typeof en.nav, 'label' | 'groups'>;

/** The lazy pages of the signed-in screens, by the spec's names (§2 "Screen contents"). */
export type PageName =
  | 'Applications'
  | 'Brands'
  | 'Locations'
  | 'Products'
  | 'AddProduct'
  | 'VariantOptions'
  | 'VariantValues'
  | 'MeasurementUnits'
  | 'Categories'
  | 'WasteCategories'
  | 'ProductTags'
  | 'Taxes'
  | 'Customers'
  | 'Subscriptions'
  | 'Payments'
  | 'Users'
  | 'Roles'
  | 'ExchangeRates';

export interface Screen {
  /** Route path; `/*` marks screens with sub-pages (e.g. sub-categories). */
  path: string;
  /** Its page, looked up by name: an unregistered name is 'Unknown component: {name}'. */
  page?: PageName;
  titleKey: ScreenTitleKey;
  /** Who may open it (spec §2 table); null: every signed-in user. */
  requirement: PermissionRequirement | null;
}

/** The signed-in screens and their route guards (spec §2, "Protected routes"). */
export const screens = {
  dashboard: {
    path: '/',
    titleKey: 'dashboard',
    page: 'Applications',
    requirement: { or: ['viewApplications'] },
  },
  brands: { path: '/brands', titleKey: 'brands', page: 'Brands', requirement: { or: ['viewBrands'] } },
  locations: {
    path: '/locations',
    titleKey: 'locations',
    page: 'Locations',
    requirement: { or: ['viewLocations'] },
  },
  products: {
    path: '/products',
    titleKey: 'products',
    page: 'Products',
    requirement: { or: ['viewProducts'] },
  },
  addProduct: {
    path: '/products/add',
    titleKey: 'addProduct',
    page: 'AddProduct',
    requirement: { or: ['addProducts'] },
  },
  editProduct: {
    path: '/products/:id',
    titleKey: 'editProduct',
    page: 'AddProduct',
    requirement: { or: ['viewProducts'] },
  },
  variationsTypes: {
    path: '/variations-types',
    titleKey: 'variationsTypes',
    page: 'VariantOptions',
    requirement: { or: ['viewVariations'] },
  },
  options: {
    path: '/options',
    titleKey: 'options',
    page: 'VariantValues',
    requirement: { or: ['viewVariations'] },
  },
  measurementUnits: {
    path: '/measurement-units',
    titleKey: 'measurementUnits',
    page: 'MeasurementUnits',
    requirement: { or: ['viewMeasurementUnits'] },
  },
  categories: {
    path: '/categories/*',
    titleKey: 'categories',
    page: 'Categories',
    requirement: { or: ['viewCategories'] },
  },
  wasteCategories: {
    path: '/waste-categories/*',
    titleKey: 'wasteCategories',
    page: 'WasteCategories',
    requirement: { or: ['viewWasteCategories'] },
  },
  productTags: {
    path: '/product-tags',
    titleKey: 'productTags',
    page: 'ProductTags',
    requirement: { or: ['viewTags'] },
  },
  taxes: { path: '/taxes', titleKey: 'taxes', page: 'Taxes', requirement: { or: ['viewTaxes'] } },
  // The spec shows no route guard for these four; the menu's view permission guards the route too.
  customers: {
    path: '/customers',
    titleKey: 'customers',
    page: 'Customers',
    requirement: { or: ['viewCustomers'] },
  },
  subscriptions: {
    path: '/subscriptions',
    titleKey: 'subscriptions',
    page: 'Subscriptions',
    requirement: { or: ['viewSubscriptions'] },
  },
  payments: {
    path: '/payments',
    titleKey: 'payments',
    page: 'Payments',
    requirement: { or: ['viewPayments'] },
  },
  users: { path: '/users', titleKey: 'users', page: 'Users', requirement: { or: ['viewUsers'] } },
  authorityRoles: {
    path: '/authority-roles',
    titleKey: 'authorityRoles',
    page: 'Roles',
    requirement: { or: ['viewAuthority'] },
  },
  exchangeRates: {
    path: '/exchange-rates',
    titleKey: 'exchangeRates',
    page: 'ExchangeRates',
    requirement: { or: ['viewExchangeRate'] },
  },
  settings: { path: '/settings', titleKey: 'settings', requirement: null },
  profile: { path: '/profile', titleKey: 'profile', requirement: null },
} as const satisfies Record<string, Screen>;

export type ScreenName = keyof typeof screens;

/** The screens routed through their permission guard (settings and profile have their own routes). */
export const guardedScreens: readonly ScreenName[] = [
  'dashboard',
  'brands',
  'locations',
  'products',
  'addProduct',
  'editProduct',
  'variationsTypes',
  'options',
  'measurementUnits',
  'categories',
  'wasteCategories',
  'productTags',
  'taxes',
  'customers',
  'subscriptions',
  'payments',
  'users',
  'authorityRoles',
  'exchangeRates',
];
