import { normalizeCode } from './normalize-code.ts';

/*
 * A variation value saved without a code takes one from its type's code: type SIZE gives its
 * values SIZE-01, SIZE-02…, SIZE-100…, each the first number no code already has. Values have no
 * sequence of their own (`codePrefix`): the type's code says what the value is a value of.
 */

/** The most characters a code holds (`codeField`), counted as the schemas count them (UTF-16 units). */
export const maxCodeLength = 60;

/**
 * The value code of number `number` for a type: the type's code, a hyphen and the number in at
 * least two digits. A type code too long for that is cut short, by whole characters, so that the
 * whole code still has at most 60 characters (`maxCodeLength`).
 */
export function valueCodeCandidate(typeCode: string, number: number): string {
  const suffix = `-${String(number).padStart(2, '0')}`;
  let head = '';
  for (const character of typeCode) {
    if (head.length + character.length + suffix.length > maxCodeLength) break;
    head += character;
  }
  return normalizeCode(`${head}${suffix}`);
}

/**
 * The codes `count` new values of a type get, in order: the candidates from 01 up
 * (`valueCodeCandidate`) that no code of `taken` is, compared as stored (`normalizeCode`), and
 * none twice. `typeCode` is a stored code (normalized, not empty).
 */
export function deriveValueCodes(typeCode: string, taken: Iterable<string>, count = 1): string[] {
  const used = new Set<string>();
  for (const code of taken) used.add(normalizeCode(code));
  const codes: string[] = [];
  // Candidates of different numbers differ (their digits do), so this ends past the taken ones.
  for (let number = 1; codes.length < count; number++) {
    const code = valueCodeCandidate(typeCode, number);
    if (used.has(code)) continue;
    used.add(code);
    codes.push(code);
  }
  return codes;
}
