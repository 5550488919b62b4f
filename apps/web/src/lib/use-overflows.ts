import { type RefObject, useEffect, useState } from 'react';

/**
 * Is the element wider than its box (does it scroll sideways)? Follows resizes of the element and
 * of what it holds. A frame that scrolls must be reachable by keyboard (WCAG 2.1.1): the caller
 * makes it focusable while this is true, and only then, so a list that fits adds no tab stop.
 */
export function useOverflowsInline(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // Read in the observer's callback only: it runs once layout is done (first when observing
    // starts), where a read in the effect itself would force the page's whole first layout.
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}
