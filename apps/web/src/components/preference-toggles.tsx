import { useTranslation } from 'react-i18next';
import { type LanguageCode, languages } from '../i18n/languages.ts';
import { useTheme } from '../lib/theme.ts';
import { Button } from './ui/button.tsx';
import { LanguageIcon, MoonIcon, SunIcon } from './ui/icons.tsx';

/**
 * A language's name in that language, in the device's face (`font-system`): the other script's
 * font files are downloaded only when a page is shown in it.
 */
export function LanguageName({ code }: { code: LanguageCode }) {
  const { t } = useTranslation();
  return (
    <span lang={code} className="font-system">
      {t(`languages.${code}`)}
    </span>
  );
}

/** Switches to the other language; its name is shown in that language. */
export function LanguageToggle() {
  const { i18n } = useTranslation();
  const other = languages.find((language) => language.code !== i18n.resolvedLanguage) ?? languages[0];
  return (
    <Button variant="ghost" size="sm" onClick={() => void i18n.changeLanguage(other.code)}>
      <LanguageIcon className="size-4" />
      <LanguageName code={other.code} />
    </Button>
  );
}

export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme, toggleTheme } = useTheme();
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} title={label}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
