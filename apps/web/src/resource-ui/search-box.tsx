import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '../components/ui/action-icons.tsx';
import { Input } from '../components/ui/input.tsx';

export const searchDebounceMs = 300;

/**
 * The list's search field: the address bar follows 300 ms after the last keystroke; a change
 * made elsewhere (back/forward, a link) shows up in the field.
 */
export function SearchBox({
  value,
  onSearch,
  label,
}: {
  value: string;
  onSearch: (search: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);
  const committed = useRef(value);
  // The latest callback without re-arming the timer: it changes with every address change, and a
  // re-armed timer would send the text of before a Back straight back into the address.
  const latestOnSearch = useRef(onSearch);
  useEffect(() => {
    latestOnSearch.current = onSearch;
  });

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const search = text.trim();
    if (search === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = search;
      latestOnSearch.current(search);
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="relative w-full sm:w-72">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute inset-y-0 start-3 my-auto size-4 text-slate-400" />
      <Input
        id={id}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('resourceList.searchPlaceholder')}
        className="ps-9"
        maxLength={100}
        autoComplete="off"
      />
    </div>
  );
}
