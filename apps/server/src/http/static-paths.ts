/**
 * Whether a path asked of a static file root is a plain one: no `.`/`..` segment, backslash or
 * NUL, raw or percent-decoded. Stored files and built assets never have such names, so anything
 * else answers 404 like a missing file (`send` would refuse it as 403, or fail on it).
 */
export function isPlainStaticPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return ![pathname, decoded].some((path) => /(^|[/\\])\.{1,2}([/\\]|$)|\\|\0/.test(path));
}
