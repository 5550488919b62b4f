function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(x|s|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The spec's toast entity (§8): the resource path's last segment, singular, upper-cased —
 * `workspaces/users` → `USER`, `waste-categories` → `WASTE CATEGORY`. Used when a resource has no
 * translated `resources.<key>.entity` (Arabic has no upper case, so translations carry their own).
 */
export function entityFromPath(path: string): string {
  const segment = path.split('/').filter(Boolean).at(-1) ?? path;
  const words = segment.split('-');
  const last = words.pop() ?? '';
  return [...words, singular(last)].join(' ').toUpperCase();
}
