import i18next, { type BackendModule, type LanguageDetectorModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyDocumentLanguage, firstSupportedLanguage, languageCodes } from './languages.ts';

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
  en: () => import('./locales/signed-in/texts-en.ts'),
  ar: () => import('./locales/signed-in/texts-ar.ts'),
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

/** The cookie the server's own pages read the reader's language from (`features/oauth/pages.ts`). */
export const languageCookie = 'dukkan_language';

/** Reads a value without failing where storage or cookies are blocked. */
function readSafely(read: () => string | null | undefined): string | undefined {
  try {
    return read() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language to start in, by the spec's order (§9): query string `lng`, cookie `i18next`, local
 * storage `i18nextLng`, session storage `i18nextLng`, the browser's languages, `<html lang>`: the
 * first of them the product has, not merely the first; the result is kept in local storage. The
 * same order as i18next-browser-languagedetector, in 30 lines instead of 2.5 KB on the login path.
 */
export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect() {
    const cookie = readSafely(() => document.cookie.match(/(?:^|;\s*)i18next=([^;]*)/)?.[1]);
    const candidates = [
      readSafely(() => new URLSearchParams(window.location.search).get('lng')),
      cookie === undefined ? undefined : decodeURIComponent(cookie),
      readSafely(() => window.localStorage.getItem('i18nextLng')),
      readSafely(() => window.sessionStorage.getItem('i18nextLng')),
      ...(readSafely(() => navigator.languages?.join(','))?.split(',') ?? []),
      readSafely(() => navigator.language),
      readSafely(() => document.documentElement.getAttribute('lang')),
    ];
    // The first the product has wins, wherever it is in the list (`fr, ar` is Arabic), as
    // i18next matches the detector's list; with none of them, the default (en).
    return firstSupportedLanguage(candidates);
  },
  cacheUserLanguage(language) {
    readSafely(() => {
      window.localStorage.setItem('i18nextLng', language);
      return undefined;
    });
    // Also a cookie, for the pages the server writes without the app (the authorization server's
    // sign-out confirmation). Not the `i18next` cookie read above: that one would then win over
    // local storage at every later start, and a choice kept there only (before this cookie
    // existed, or by another tab's older code) would be overruled by a stale cookie.
    readSafely(() => {
      // biome-ignore lint/suspicious/noDocumentCookie: one fixed value; the Cookie Store API is not in every browser the app serves
      document.cookie = `${languageCookie}=${encodeURIComponent(language)}; path=/; max-age=31536000; samesite=lax`;
      return undefined;
    });
  },
};

/** Sets up i18next (detector, lazy locales, React binding); resolves once the language is loaded. */
export async function initI18n() {
  i18next.on('languageChanged', (language) => applyDocumentLanguage(language));
  await i18next
    .use(lazyLocales)
    .use(languageDetector)
    .use(initReactI18next)
    .init({
      // No fallback language: Arabic has every key of English (`locales.test.ts`), and a fallback
      // is downloaded with the page's own language, whether or not a text is ever missing — on an
      // Arabic page, English's texts (3.6 KB on the login page, 10 KB signed in) for nothing.
      fallbackLng: false,
      supportedLngs: languageCodes,
      load: 'languageOnly',
      interpolation: { escapeValue: false },
      showSupportNotice: false,
    });
  applyDocumentLanguage(i18next.language);
  return i18next;
}
