/** A text in English and in Arabic, as the contract's records hold a localized text. */
export const bothLanguages = (en: string, ar: string) => [
  { locale: 'en' as const, value: en },
  { locale: 'ar' as const, value: ar },
];
