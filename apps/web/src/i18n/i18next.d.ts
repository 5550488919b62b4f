import 'i18next';
import type en from './locales/en.json';
import type signedInEn from './locales/signed-in/texts-en.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    /** One namespace, delivered in two files: the public pages' texts and the signed-in screens'. */
    resources: { translation: typeof en & typeof signedInEn };
  }
}
