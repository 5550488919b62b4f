import type { PermissionRequirement } from '@dukkan/contract';
import type en from '../i18n/locales/signed-in/en.json';

export type ScreenTitleKey = Exclude<keyof typeof en.nav, 'label' | 'groups'>;

export interface Screen {
  /** Route path; `/*` marks screens with sub-pages (e.g. sub-categories). */
  path: string;
  titleKey: ScreenTitleKey;
  /** Who may open it (spec §2 table); null: every signed-in user. */
  requirement: PermissionRequirement | null;
}

/** The signed-in screens and their route guards (spec §2, "Protected routes"). */
export const screens = {
  dashboard: { path: '/', titleKey: 'dashboard', requirement: { or: ['viewApplications'] } },
  brands: { path: '/brands', titleKey: 'brands', requirement: { or: ['viewBrands'] } },
  locations: { path: '/locations', titleKey: 'locations', requirement: { or: ['viewLocations'] } },
  products: { path: '/products', titleKey: 'products', requirement: { or: ['viewProducts'] } },
  addProduct: { path: '/products/add', titleKey: 'addProduct', requirement: { or: ['addProducts'] } },
  editProduct: { path: '/products/:id', titleKey: 'editProduct', requirement: { or: ['viewProducts'] } },
  variationsTypes: {
    path: '/variations-types',
    titleKey: 'variationsTypes',
    requirement: { or: ['viewVariations'] },
  },
  options: { path: '/options', titleKey: 'options', requirement: { or: ['viewVariations'] } },
  measurementUnits: {
    path: '/measurement-units',
    titleKey: 'measurementUnits',
    requirement: { or: ['viewMeasurementUnits'] },
  },
  categories: { path: '/categories/*', titleKey: 'categories', requirement: { or: ['viewCategories'] } },
  wasteCategories: {
    path: '/waste-categories/*',
    titleKey: 'wasteCategories',
    requirement: { or: ['viewWasteCategories'] },
  },
  productTags: { path: '/product-tags', titleKey: 'productTags', requirement: { or: ['viewTags'] } },
  taxes: { path: '/taxes', titleKey: 'taxes', requirement: { or: ['viewTaxes'] } },
  // The spec shows no route guard for these four; the menu's view permission guards the route too.
  customers: { path: '/customers', titleKey: 'customers', requirement: { or: ['viewCustomers'] } },
  subscriptions: {
    path: '/subscriptions',
    titleKey: 'subscriptions',
    requirement: { or: ['viewSubscriptions'] },
  },
  payments: { path: '/payments', titleKey: 'payments', requirement: { or: ['viewPayments'] } },
  users: { path: '/users', titleKey: 'users', requirement: { or: ['viewUsers'] } },
  authorityRoles: {
    path: '/authority-roles',
    titleKey: 'authorityRoles',
    requirement: { or: ['viewAuthority'] },
  },
  exchangeRates: {
    path: '/exchange-rates',
    titleKey: 'exchangeRates',
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
