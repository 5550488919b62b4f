import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { applyDocumentLanguage, defaultLanguage, languageCodes, resolveLanguage } from './languages.ts';

type LocaleLoader = () => Promise<{ default: ResourceKey }>;

/** Each locale is its own chunk, so a page downloads only the language it shows. */
const localeLoaders: Record<string, LocaleLoader> = {
  en: () => import('./locales/en.json'),
  ar: () => import('./locales/ar.json'),
};

/**
 * The texts of the signed-in screens (menus, lists, roles, users…), a second file per language:
 * the sign-in page never downloads them. Loaded with the signed-in shell.
 */
const signedInLoaders: Record<string, LocaleLoader> = {
  en: () => import('./locales/signed-in/en.json'),
  ar: () => import('./locales/signed-in/ar.json'),
};

let signedInWanted = false;

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = localeLoaders[language];
    if (!load) {
      callback(new Error(`No locale ${language}`), false);
      return;
    }
    // Once signed in, a language switched to later arrives with both of its files.
    const loadSignedIn = signedInWanted ? signedInLoaders[language] : undefined;
    Promise.all([load(), loadSignedIn?.()]).then(
      ([main, signedIn]) =>
        callback(
          null,
          signedIn ? { ...(main.default as object), ...(signedIn.default as object) } : main.default,
        ),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Adds the signed-in texts to every language loaded so far (and, from now on, to those loaded later). */
export async function loadSignedInTranslations(instance = i18next): Promise<void> {
  signedInWanted = true;
  const loaded = languageCodes.filter((code) => instance.hasResourceBundle(code, 'translation'));
  await Promise.all(
    loaded.map(async (code) => {
      if (instance.exists('nav.label', { lng: code, fallbackLng: [] })) return;
      const texts = await signedInLoaders[code]?.();
      if (texts) instance.addResourceBundle(code, 'translation', texts.default, true, false);
    }),
  );
}

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
