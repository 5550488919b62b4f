import { formatDate, formatTime } from '@dukkan/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The contract's date and time formats in the current language (ar → ar-EG, else en-US). */
export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      formatDate: (value: Date | string | number) => formatDate(value, language),
      formatTime: (value: Date | string | number) => formatTime(value, language),
    }),
    [language],
  );
}
