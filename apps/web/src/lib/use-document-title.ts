import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** "Brands · Dukkan": the tab names the screen, in the current language. */
export function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  const product = t('app.name');
  useEffect(() => {
    document.title = title ? `${title} · ${product}` : product;
  }, [title, product]);
}
