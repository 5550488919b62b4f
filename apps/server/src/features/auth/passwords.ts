import { validationCodes } from '@dukkan/contract';
import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { validationError } from '../../errors.ts';

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

/**
 * Longer passwords are not estimated: the bundled list's longest entry has 20 characters, and the
 * estimate's cost grows with the length (about 100 ms at 64 characters, half a second at 255).
 */
const estimatedLength = 64;
/** zxcvbn's score 2 is 10⁶ guesses: below it a password is a listed one or a trivial variant of it. */
const lowestScore = 2;
/** Words of this application that make a password easy to guess wherever it is used. */
const contextWords = ['dukkan', 'دكان', 'دكّان'];

let estimator: ZxcvbnFactory | undefined;

/**
 * Whether a password is a common one: a password of the common-passwords list bundled with
 * zxcvbn-ts (about 50,000, with their keyboard patterns) or a trivial variant of it — a capital
 * letter, digits or a symbol added, l33t substitutions (`Password1!`, `Qwerty123!`, `P@ssw0rd`).
 * `userInputs` adds the person's own words (their name, their email's parts). No network call:
 * the list ships in the package, and is loaded on the first call (about 70 ms).
 */
export function isCommonPassword(password: string, userInputs: readonly string[] = []): boolean {
  if (password.length > estimatedLength) return false;
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...dictionary, dukkan: contextWords },
    graphs: adjacencyGraphs,
    maxLength: estimatedLength,
  });
  const personalWords = userInputs
    .flatMap((input) => input.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    .filter((word) => word.length >= 3);
  return estimator.check(password, personalWords).score < lowestScore;
}

/**
 * Hashes a password a person chose (set, reset or changed), refusing a common one with a field
 * error at `path`: the one way a chosen password is stored, after the contract's rule (spec §5).
 */
export async function hashChosenPassword(
  password: string,
  path: string,
  userInputs: readonly string[] = [],
): Promise<string> {
  if (isCommonPassword(password, userInputs)) {
    throw validationError([{ path, message: validationCodes.PASSWORD_TOO_COMMON }]);
  }
  return hashPassword(password);
}
