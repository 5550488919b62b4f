import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { applyDocumentLanguage, defaultLanguage, languageCodes, resolveLanguage } from './languages.ts';

/** Each locale is its own chunk, so a page downloads only the language it shows. */
const localeLoaders: Record<string, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./locales/en.json'),
  ar: () => import('./locales/ar.json'),
};

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = localeLoaders[language];
    if (!load) {
      callback(new Error(`No locale ${language}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Sets up i18next (detector, lazy locales, React binding); resolves once the language is loaded. */
export async function initI18n() {
  i18next.on('languageChanged', (language) => applyDocumentLanguage(language));
  await i18next
    .use(lazyLocales)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      fallbackLng: defaultLanguage,
      supportedLngs: languageCodes,
      load: 'languageOnly',
      interpolation: { escapeValue: false },
      showSupportNotice: false,
      detection: {
        order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
        lookupQuerystring: 'lng',
        lookupCookie: 'i18next',
        lookupLocalStorage: 'i18nextLng',
        caches: ['localStorage'],
        convertDetectedLanguage: (language) => resolveLanguage(language).code,
      },
    });
  applyDocumentLanguage(i18next.language);
  return i18next;
}
