import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type en from '../i18n/locales/en.json';

type MessageCode = keyof typeof en.validation;

/**
 * Form messages are codes (the contract's validation codes, plus a few of the web's own);
 * a message without a translation is shown as it came (spec: unknown message → raw text).
 */
export function useMessageText() {
  const { t, i18n } = useTranslation();
  return useCallback(
    (message: string) => {
      const key = `validation.${message}`;
      return i18n.exists(key) ? t(key as `validation.${MessageCode}`) : message;
    },
    [t, i18n],
  );
}
