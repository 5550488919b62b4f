/** Joins the truthy class names; conditional classes read as `cn('a', active && 'b')`. */
export function cn(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
