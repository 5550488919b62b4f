import { type ChangeEvent, type KeyboardEvent, type MouseEvent, useId, useState } from 'react';

/**
 * Where a key pressed in a search box moves the highlighted option of its list of `count`:
 * arrows by one, Page Up/Down by ten, Ctrl+Home/End to the ends; `'choose'` for Enter, and
 * undefined for a key the list leaves to the box.
 */
export function listboxKeyTarget(
  key: string,
  ctrlKey: boolean,
  activeIndex: number,
  count: number,
): number | 'choose' | undefined {
  const last = Math.max(count - 1, 0);
  if (key === 'ArrowDown') return Math.min(activeIndex + 1, last);
  if (key === 'ArrowUp') return Math.max(activeIndex - 1, 0);
  if (key === 'PageDown') return Math.min(activeIndex + 10, last);
  if (key === 'PageUp') return Math.max(activeIndex - 10, 0);
  if (key === 'Home' && ctrlKey) return 0;
  if (key === 'End' && ctrlKey) return last;
  if (key === 'Enter') return 'choose';
  return undefined;
}

/**
 * The highlighted option of a search box's list (a combobox with `aria-activedescendant`): its
 * index kept within the list, the options' ids, and the box's key handling, which calls
 * `choose` with the highlighted index on Enter. `searchProps` and `optionProps` are the
 * attributes and handlers of the box and of each option (`selected`: the current choice): typing highlights the first match,
 * hovering an option highlights it, a click or Enter on it chooses it, and the focus stays in the
 * box throughout.
 */
export function useListboxKeys(count: number, choose: (index: number) => void) {
  const listId = useId();
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(count - 1, 0));
  const optionId = (index: number) => `${listId}-option-${index}`;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const target = listboxKeyTarget(event.key, event.ctrlKey, activeIndex, count);
    if (target === undefined) return;
    if (target === 'choose') choose(activeIndex);
    else setActive(target);
    event.preventDefault();
  };
  const searchProps = (query: string, setQuery: (query: string) => void) =>
    ({
      type: 'search',
      role: 'combobox',
      'aria-expanded': true,
      'aria-controls': listId,
      'aria-autocomplete': 'list',
      'aria-activedescendant': count > 0 ? optionId(activeIndex) : undefined,
      value: query,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setQuery(event.target.value);
        setActive(0);
      },
      onKeyDown,
    }) as const;
  const optionProps = (index: number, selected: boolean) =>
    ({
      id: optionId(index),
      role: 'option',
      tabIndex: -1,
      'aria-selected': selected,
      onMouseEnter: () => setActive(index),
      onMouseDown: (event: MouseEvent) => event.preventDefault(),
      onClick: () => choose(index),
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === 'Enter') choose(index);
      },
    }) as const;
  return { listId, activeIndex, setActive, searchProps, optionProps };
}
