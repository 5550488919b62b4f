import { hash, verify } from '@node-rs/argon2';

/** argon2id at the OWASP minimum (m=19 MiB, t=2, p=1); the library's default algorithm is argon2id. */
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** Verified for unknown emails too, so that both answers take about as long. */
const dummyHash = hash('dukkan-timing-equaliser', options);

export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  try {
    return await verify(passwordHash ?? (await dummyHash), password);
  } catch {
    return false;
  }
}
