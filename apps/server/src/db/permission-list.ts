import { sql } from 'drizzle-orm';
import { roles } from './schema/index.ts';

/**
 * A role's tags read as one comma-joined string and split in JavaScript: the drivers' parsers of
 * text[] cost microseconds an element (for a user in 50 workspaces' 3,400 tags that was five times
 * the rest of `GET auth/user`), and the access guard reads a role's tags on every request. Tags
 * are catalogue identifiers and never contain a comma. Null (no role) stays null.
 */
export function permissionList(column = roles.permissions) {
  return sql<string[] | null>`array_to_string(${column}, ',')`.mapWith((joined: string) =>
    joined === '' ? [] : joined.split(','),
  );
}
