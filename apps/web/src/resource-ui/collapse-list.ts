/**
 * How many of a list's items a collapsed cell shows: all of them when they fit in `limit` lines,
 * else one line fewer, the last line saying how many more there are ("+5 more") — a summary never
 * takes more lines than the list it replaces, and never hides a single item behind "+1 more".
 */
export function collapseList(count: number, limit: number): { shown: number; hidden: number } {
  const lines = Math.max(1, Math.floor(limit));
  if (count <= lines) return { shown: Math.max(0, count), hidden: 0 };
  return { shown: lines - 1, hidden: count - (lines - 1) };
}
