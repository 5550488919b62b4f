import { createHash, randomBytes } from 'node:crypto';

/** A random, URL-safe token of 256 bits. Only its SHA-256 is stored. */
export function createToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
