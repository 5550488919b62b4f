import { useCallback, useSyncExternalStore } from 'react';

type Theme = 'light' | 'dark';
const themeStorageKey = 'theme';

const listeners = new Set<() => void>();

/** The theme shown now: index.html's inline script already applied the stored one before paint. */
function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  try {
    localStorage.setItem(themeStorageKey, theme);
  } catch {
    // Storage refused: the theme still applies to this page.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme() {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => applyTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggleTheme };
}
