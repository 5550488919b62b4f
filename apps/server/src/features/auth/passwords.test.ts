import { strongPasswordPattern } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './passwords.ts';

/** Each meets the spec's rule (§5) and is a listed password or a trivial variant of one. */
const commonPasswords = [
  'Password1!',
  'Qwerty123!',
  'P@ssw0rd1!',
  'Welcome1!',
  'Iloveyou1!',
  'Letmein1!',
  'Abc12345!',
  'Dragon1!',
  'Zaq12wsx!Q',
];
/** Each meets the spec's rule and is not common. */
const uncommonPasswords = ['Sesame#Open1', 'Changed#Pass9', 'Correct#Horse9', 'Kx9#mPq2vL', 'Via#Smtp2025'];

describe('isCommonPassword', () => {
  it.each(commonPasswords)('%s: common, though it meets the rule of §5', (password) => {
    expect(password).toMatch(strongPasswordPattern);
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(uncommonPasswords)('%s: not common', (password) => {
    expect(password).toMatch(strongPasswordPattern);
    expect(isCommonPassword(password)).toBe(false);
  });

  it("refuses the application's name and the person's own words", () => {
    expect(isCommonPassword('Dukkan1!')).toBe(true);
    expect(isCommonPassword('Rashidah#77')).toBe(false);
    expect(isCommonPassword('Rashidah#77', ['Rashidah Kamal', 'rashidah.kamal@example.com'])).toBe(true);
  });

  it('leaves passwords over 64 characters to their length', () => {
    expect(isCommonPassword('Password1!'.repeat(6).slice(0, 64))).toBe(true);
    expect(isCommonPassword('Password1!'.repeat(7))).toBe(false);
  });
});
