import { useTranslation } from 'react-i18next';
import { resolveLanguage } from '../i18n/languages.ts';

/** 'rtl' for Arabic: for components (menus) that position themselves and need to know. */
export function useDirection(): 'ltr' | 'rtl' {
  const { i18n } = useTranslation();
  return resolveLanguage(i18n.language).dir;
}
