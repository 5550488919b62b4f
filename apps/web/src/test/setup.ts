import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import toast from 'react-hot-toast';
import { initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';
import en from '../i18n/locales/en.json';
import signedInEn from '../i18n/locales/signed-in/texts-en.ts';
import { mergedTexts } from './texts.ts';

// `findBy…` and `waitFor` give up after 5 s rather than 1 s: a lazily loaded page (the signed-in
// area, the date picker) is first compiled by the test runner, which on a loaded 2-core machine
// took over a second (CI saw three such failures while other suites ran beside it).
configure({ asyncUtilTimeout: 5_000 });

// Tests read the English texts synchronously; the app itself loads locales lazily.
await i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: mergedTexts(en, signedInEn) } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

afterEach(() => {
  cleanup();
  // Toasts live in a module-wide store: one test's toasts must not show up in the next.
  toast.remove();
  localStorage.clear();
});
