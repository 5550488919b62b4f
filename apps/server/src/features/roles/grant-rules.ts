import type { WorkspaceGrant } from '@dukkan/contract';
import { forbidden } from '../../errors.ts';

/** The tags of `tags` that a person with `grant` does not hold (none for an admin). */
export function tagsNotHeld(grant: WorkspaceGrant, tags: readonly string[]): string[] {
  if (grant.isAdmin) return [];
  return [...new Set(tags)].filter((tag) => !grant.tags.has(tag));
}

/**
 * No escalation: a non-admin may not give anyone — by editing a role or by assigning one — a
 * tag they do not hold themselves. Throws FORBIDDEN naming the missing tags.
 */
export function refuseTagsNotHeld(grant: WorkspaceGrant, tags: readonly string[], message: string) {
  const missing = tagsNotHeld(grant, tags);
  if (missing.length > 0) throw forbidden(`${message}: ${missing.join(', ')}`);
}
