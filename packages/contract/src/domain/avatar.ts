/** Workspace avatar fallback: the first two letters of the name, upper case (spec §9). */
export function workspaceInitials(name: string): string {
  return Array.from(name.trim()).slice(0, 2).join('').toUpperCase();
}

/** User avatar fallback: the first letter of the name, or USER (spec §9). */
export function userInitial(name: string | null | undefined): string {
  const first = Array.from(name?.trim() ?? '')[0];
  return first ? first.toUpperCase() : 'USER';
}

/** The portal's avatar: the initials of the first two words of the name (spec §2). */
export function nameInitials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 2);
  if (words.length === 0) return 'USER';
  return words.map((word) => Array.from(word)[0]?.toUpperCase() ?? '').join('');
}
