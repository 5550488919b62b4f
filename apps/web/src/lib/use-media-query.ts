import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the window matches a media query, kept current as it changes; undefined where the
 * browser cannot tell (no `matchMedia`).
 */
export function useMediaQuery(query: string): boolean | undefined {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : undefined,
  );
}
