import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type signedInEn from '../../i18n/locales/signed-in/en.json';

type Section = typeof signedInEn extends { products: { variants: infer Texts } }
  ? Texts
  : Record<string, string>;

/** A key under `products.variants` of the signed-in locale files: checked once en.json has the section. */
export type VariantTextKey = keyof Section & string;

type LooseTranslate = (key: string, values?: Record<string, string | number>) => string;

/**
 * The variant grid's and bulk bar's texts, `t('products.variants.<key>')`. i18next's typed `t`
 * cannot take a key built from a template, hence the one cast; the key itself stays typed.
 */
export function useVariantTexts(): (key: VariantTextKey, values?: Record<string, string | number>) => string {
  const { t } = useTranslation();
  return useCallback(
    (key, values) => (t as unknown as LooseTranslate)(`products.variants.${key}`, values),
    [t],
  );
}
