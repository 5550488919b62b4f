import { cleanup } from '@testing-library/react';
import i18next from 'i18next';
import toast from 'react-hot-toast';
import { initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';
import en from '../i18n/locales/en.json';
import signedInEn from '../i18n/locales/signed-in/en.json';

// Tests read the English texts synchronously; the app itself loads locales lazily.
await i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: { ...en, ...signedInEn } } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

afterEach(() => {
  cleanup();
  // Toasts live in a module-wide store: one test's toasts must not show up in the next.
  toast.remove();
  localStorage.clear();
});
