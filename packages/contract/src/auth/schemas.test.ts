import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validationCodes } from '../validation-codes.ts';
import {
  businessCategories,
  changePasswordFormSchema,
  changePasswordInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  newPasswordFormSchema,
  referralSources,
  requestAccessInputSchema,
  resetPasswordInputSchema,
  updateProfileInputSchema,
} from './schemas.ts';

/** The first message per path, as the server reports them (spec §5: one message per path). */
function issues(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const byPath: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    byPath[path] ??= issue.message;
  }
  return byPath;
}

function expectValid<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  return result.data as z.output<S>;
}

const codes = validationCodes;
const repeat = (length: number, char = 'a') => char.repeat(length);

describe('validation codes', () => {
  it('every code is its own name, so the web can translate validation.<CODE>', () => {
    for (const [name, code] of Object.entries(validationCodes)) expect(code).toBe(name);
  });
});

describe('loginInputSchema (email valid, max 255; password 8-255)', () => {
  const valid = { email: 'sara@shop.example', password: '12345678' };

  it('accepts a valid login and normalises the email (trim, lower case)', () => {
    expect(expectValid(loginInputSchema, { email: '  Sara@Shop.EXAMPLE ', password: '12345678' })).toEqual(
      valid,
    );
  });

  it('the password only needs a length here (old passwords may predate the strength rule)', () => {
    expectValid(loginInputSchema, { ...valid, password: 'aaaaaaaa' });
    expectValid(loginInputSchema, { ...valid, password: repeat(255) });
  });

  it.each([
    ['missing email', { password: '12345678' }, 'email', codes.EMAIL_IS_INVALID],
    ['empty email', { ...valid, email: '' }, 'email', codes.EMAIL_IS_INVALID],
    ['email without @', { ...valid, email: 'sara.shop.example' }, 'email', codes.EMAIL_IS_INVALID],
    ['email without domain', { ...valid, email: 'sara@' }, 'email', codes.EMAIL_IS_INVALID],
    ['email with a space', { ...valid, email: 'sa ra@shop.example' }, 'email', codes.EMAIL_IS_INVALID],
    ['email not a string', { ...valid, email: 42 }, 'email', codes.EMAIL_IS_INVALID],
    ['email of 256', { ...valid, email: `${repeat(243)}@shop.example` }, 'email', codes.EMAIL_TOO_LONG],
    ['missing password', { email: valid.email }, 'password', codes.PASSWORD_IS_REQUIRED],
    ['password not a string', { ...valid, password: 12345678 }, 'password', codes.PASSWORD_IS_REQUIRED],
    ['password of 7', { ...valid, password: repeat(7) }, 'password', codes.PASSWORD_TOO_SHORT],
    ['password of 256', { ...valid, password: repeat(256) }, 'password', codes.PASSWORD_TOO_LONG],
  ])('%s', (_label, input, path, code) => {
    expect(issues(loginInputSchema, input)[path]).toBe(code);
  });

  it('an email of exactly 255 characters passes the length rule', () => {
    const email = `${repeat(242)}@shop.example`;
    expect(email).toHaveLength(255);
    expectValid(loginInputSchema, { ...valid, email });
  });
});

describe('requestAccessInputSchema (spec §5 request access)', () => {
  const valid = {
    name: 'Sara Ali',
    email: 'sara@shop.example',
    phone: '+20 100 123 456',
    companyName: 'Sara Foods',
    companyWebsite: 'https://sara.example',
    businessCategory: 'food',
    howDidYouHearAboutUs: 'google',
  };

  it('accepts a complete request, its phone stored without spaces; captcha token and language are optional', () => {
    expect(expectValid(requestAccessInputSchema, valid)).toEqual({ ...valid, phone: '+20100123456' });
    expectValid(requestAccessInputSchema, { ...valid, reCaptchaToken: 'token', language: 'ar' });
  });

  it('drops unknown fields', () => {
    const parsed = expectValid(requestAccessInputSchema, { ...valid, status: 'approved', id: 'x' });
    expect(parsed).not.toHaveProperty('status');
    expect(parsed).not.toHaveProperty('id');
  });

  describe('name 1-60', () => {
    it('60 characters pass, surrounding spaces are trimmed first', () => {
      expectValid(requestAccessInputSchema, { ...valid, name: repeat(60) });
      expect(expectValid(requestAccessInputSchema, { ...valid, name: `  ${repeat(60)}  ` }).name).toBe(
        repeat(60),
      );
      expectValid(requestAccessInputSchema, { ...valid, name: 'س' });
    });
    it.each([
      ['61 characters', repeat(61), codes.NAME_TOO_LONG],
      ['empty', '', codes.NAME_IS_REQUIRED],
      ['only spaces', '   ', codes.NAME_IS_REQUIRED],
      ['missing', undefined, codes.NAME_IS_REQUIRED],
      ['a number', 5, codes.NAME_IS_REQUIRED],
    ])('%s', (_label, name, code) => {
      expect(issues(requestAccessInputSchema, { ...valid, name })).toEqual({ name: code });
    });
  });

  describe('email valid, max 255', () => {
    it.each([
      ['invalid', 'sara', codes.EMAIL_IS_INVALID],
      ['missing', undefined, codes.EMAIL_IS_INVALID],
      ['256 characters', `${repeat(243)}@shop.example`, codes.EMAIL_TOO_LONG],
    ])('%s', (_label, email, code) => {
      expect(issues(requestAccessInputSchema, { ...valid, email })).toEqual({ email: code });
    });
  });

  describe('phone: digits, space, plus, parentheses, hyphen; 10-15 characters once normalized', () => {
    it.each([
      ['10 digits', '0123456789', '0123456789'],
      ['15 digits', '012345678901234', '012345678901234'],
      ['every allowed character', '+1 (55) 12-3456', '+155123456'],
      ['an international number in groups', '+20 100 123 4567', '+201001234567'],
      ['Arabic-Indic digits', '٠١٠٠٢٣٤٥٦٧٨', '01002345678'],
      ['dots', '0123.456.789', '0123456789'],
    ])('%s pass', (_label, phone, stored) => {
      expect(expectValid(requestAccessInputSchema, { ...valid, phone }).phone).toBe(stored);
    });
    it.each([
      ['9 characters', '012345678', codes.PHONE_TOO_SHORT],
      ['16 characters', '0123456789012345', codes.PHONE_TOO_LONG],
      ['letters', '01234abcde', codes.PHONE_IS_INVALID],
      ['16 characters in groups', '+20 (100) 1234-567890', codes.PHONE_TOO_LONG],
      ['9 Arabic-Indic digits', '٠١٢٣٤٥٦٧٨', codes.PHONE_TOO_SHORT],
      ['a slash', '0123/456789', codes.PHONE_IS_INVALID],
      ['a plus inside', '0123+456789', codes.PHONE_IS_INVALID],
      ['an Arabic letter', '٠١٢٣٤٥٦٧٨٩ه', codes.PHONE_IS_INVALID],
      ['separators only', ' - ( ) . ', codes.PHONE_IS_REQUIRED],
      ['empty', '', codes.PHONE_IS_REQUIRED],
      ['missing', undefined, codes.PHONE_IS_REQUIRED],
      ['a number', 1234567890, codes.PHONE_IS_REQUIRED],
    ])('%s', (_label, phone, code) => {
      expect(issues(requestAccessInputSchema, { ...valid, phone })).toEqual({ phone: code });
    });
    it('length counts after trimming', () => {
      expect(issues(requestAccessInputSchema, { ...valid, phone: ' 012345678 ' })).toEqual({
        phone: codes.PHONE_TOO_SHORT,
      });
    });
  });

  describe('companyName 1-255', () => {
    it('255 characters pass', () => {
      expectValid(requestAccessInputSchema, { ...valid, companyName: repeat(255) });
    });
    it.each([
      ['256 characters', repeat(256), codes.COMPANY_NAME_TOO_LONG],
      ['empty', '', codes.COMPANY_NAME_IS_REQUIRED],
      ['spaces', '  ', codes.COMPANY_NAME_IS_REQUIRED],
      ['missing', undefined, codes.COMPANY_NAME_IS_REQUIRED],
    ])('%s', (_label, companyName, code) => {
      expect(issues(requestAccessInputSchema, { ...valid, companyName })).toEqual({ companyName: code });
    });
  });

  describe('companyWebsite: a URL or empty', () => {
    it.each([
      ['empty', ''],
      ['missing', undefined],
      ['https', 'https://a.example/path?q=1'],
      ['http', 'http://a.example'],
    ])('%s passes', (_label, companyWebsite) => {
      expectValid(requestAccessInputSchema, { ...valid, companyWebsite });
    });
    it.each([
      ['no scheme', 'www.example.com', 'https://www.example.com'],
      ['a bare host with a path', ' shop.example/menu ', 'https://shop.example/menu'],
      ['spaces around', '  https://a.example  ', 'https://a.example'],
    ])('%s is stored normalized', (_label, companyWebsite, stored) => {
      expect(expectValid(requestAccessInputSchema, { ...valid, companyWebsite }).companyWebsite).toBe(stored);
    });
    it.each([
      ['not a url', 'not a url'],
      ['a word', 'shop'],
      ['ftp', 'ftp://a.example'],
      ['javascript', 'javascript:alert(1)'],
      ['over 255', `https://a.example/${repeat(240)}`],
      ['a number', 5],
    ])('%s → URL_IS_INVALID', (_label, companyWebsite) => {
      expect(issues(requestAccessInputSchema, { ...valid, companyWebsite })).toEqual({
        companyWebsite: codes.URL_IS_INVALID,
      });
    });
  });

  describe('enums', () => {
    it('every business category and referral source of the spec passes', () => {
      expect([...businessCategories]).toEqual([
        'food',
        'technology',
        'finance',
        'health',
        'education',
        'other',
      ]);
      expect([...referralSources]).toEqual(['google', 'facebook', 'tiktok', 'friend', 'other']);
      for (const businessCategory of businessCategories) {
        expectValid(requestAccessInputSchema, { ...valid, businessCategory });
      }
      for (const howDidYouHearAboutUs of referralSources) {
        expectValid(requestAccessInputSchema, { ...valid, howDidYouHearAboutUs });
      }
    });
    it.each([['cars'], ['Food'], [''], [undefined]])(
      'businessCategory %s → BUSINESS_CATEGORY_IS_REQUIRED',
      (value) => {
        expect(issues(requestAccessInputSchema, { ...valid, businessCategory: value })).toEqual({
          businessCategory: codes.BUSINESS_CATEGORY_IS_REQUIRED,
        });
      },
    );
    it.each([['radio'], ['Google'], [''], [undefined]])(
      'howDidYouHearAboutUs %s → HOW_DID_YOU_HEAR_IS_REQUIRED',
      (value) => {
        expect(issues(requestAccessInputSchema, { ...valid, howDidYouHearAboutUs: value })).toEqual({
          howDidYouHearAboutUs: codes.HOW_DID_YOU_HEAR_IS_REQUIRED,
        });
      },
    );
    it('language is en or ar', () => {
      expect(issues(requestAccessInputSchema, { ...valid, language: 'fr' })).toEqual({
        language: codes.LANGUAGE_IS_INVALID,
      });
    });
  });

  it('the captcha token is bounded', () => {
    expectValid(requestAccessInputSchema, { ...valid, reCaptchaToken: repeat(20_000) });
    expect(issues(requestAccessInputSchema, { ...valid, reCaptchaToken: repeat(20_001) })).toEqual({
      reCaptchaToken: codes.CAPTCHA_FAILED,
    });
    expect(issues(requestAccessInputSchema, { ...valid, reCaptchaToken: 7 })).toEqual({
      reCaptchaToken: codes.CAPTCHA_FAILED,
    });
  });

  it('an empty form reports every required field with its code', () => {
    expect(issues(requestAccessInputSchema, {})).toEqual({
      name: codes.NAME_IS_REQUIRED,
      email: codes.EMAIL_IS_INVALID,
      phone: codes.PHONE_IS_REQUIRED,
      companyName: codes.COMPANY_NAME_IS_REQUIRED,
      businessCategory: codes.BUSINESS_CATEGORY_IS_REQUIRED,
      howDidYouHearAboutUs: codes.HOW_DID_YOU_HEAR_IS_REQUIRED,
    });
  });
});

describe('forgotPasswordInputSchema (email valid, max 255)', () => {
  it('accepts an email, with an optional token and language', () => {
    expect(expectValid(forgotPasswordInputSchema, { email: ' A@B.example ' })).toEqual({
      email: 'a@b.example',
    });
    expectValid(forgotPasswordInputSchema, { email: 'a@b.example', reCaptchaToken: 't', language: 'ar' });
  });
  it.each([
    ['missing', {}, 'email', codes.EMAIL_IS_INVALID],
    ['invalid', { email: 'nope' }, 'email', codes.EMAIL_IS_INVALID],
    ['256 characters', { email: `${repeat(243)}@shop.example` }, 'email', codes.EMAIL_TOO_LONG],
    ['bad language', { email: 'a@b.example', language: 'en-US' }, 'language', codes.LANGUAGE_IS_INVALID],
  ])('%s', (_label, input, path, code) => {
    expect(issues(forgotPasswordInputSchema, input)).toEqual({ [path]: code });
  });
});

/** Spec §5: min 8, max 255, lower case, upper case, a digit and one of !@#$%^&*. */
const strongPasswordCases: [string, unknown, string][] = [
  ['7 characters', 'Ab1!xyz', codes.PASSWORD_TOO_WEAK],
  ['no lower case', 'ABCDEF1!', codes.PASSWORD_TOO_WEAK],
  ['no upper case', 'abcdef1!', codes.PASSWORD_TOO_WEAK],
  ['no digit', 'Abcdefg!', codes.PASSWORD_TOO_WEAK],
  ['no special', 'Abcdefg1', codes.PASSWORD_TOO_WEAK],
  ['a special outside the set', 'Abcdef1?', codes.PASSWORD_TOO_WEAK],
  ['empty', '', codes.PASSWORD_TOO_WEAK],
  ['missing', undefined, codes.PASSWORD_TOO_WEAK],
  ['256 characters', `Ab1!${repeat(252)}`, codes.PASSWORD_TOO_LONG],
];
const strongPasswords = [
  'Abcdef1!',
  'Abcdef1@',
  'Abcdef1#',
  'Abcdef1$',
  'Abcdef1%',
  'Abcdef1^',
  'Abcdef1&',
  'Abcdef1*',
];

describe('resetPasswordInputSchema (password rules, token)', () => {
  const token = 'a'.repeat(43);
  it('accepts a strong password with each allowed special, and 255 characters', () => {
    for (const password of strongPasswords) expectValid(resetPasswordInputSchema, { password, token });
    expectValid(resetPasswordInputSchema, { password: `Ab1!${repeat(251)}`, token });
  });
  it.each(strongPasswordCases)('password: %s', (_label, password, code) => {
    expect(issues(resetPasswordInputSchema, { password, token })).toEqual({ password: code });
  });
  it.each([
    ['missing', undefined, codes.TOKEN_IS_REQUIRED],
    ['empty', '', codes.TOKEN_IS_REQUIRED],
    ['201 characters', repeat(201), codes.TOKEN_IS_INVALID],
    ['a number', 5, codes.TOKEN_IS_REQUIRED],
  ])('token: %s', (_label, value, code) => {
    expect(issues(resetPasswordInputSchema, { password: 'Abcdef1!', token: value })).toEqual({ token: code });
  });
});

describe('newPasswordFormSchema (password twice)', () => {
  it('accepts matching strong passwords', () => {
    expectValid(newPasswordFormSchema, { password: 'Abcdef1!', confirmPassword: 'Abcdef1!' });
  });
  it('a mismatch → PASSWORDS_DO_NOT_MATCH at confirmPassword', () => {
    const result = newPasswordFormSchema.safeParse({ password: 'Abcdef1!', confirmPassword: 'Abcdef1@' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['confirmPassword'], message: codes.PASSWORDS_DO_NOT_MATCH }),
    ]);
  });
  it('an empty confirmation → CONFIRM_PASSWORD_IS_REQUIRED first', () => {
    expect(issues(newPasswordFormSchema, { password: 'Abcdef1!', confirmPassword: '' })).toEqual({
      confirmPassword: codes.CONFIRM_PASSWORD_IS_REQUIRED,
    });
    expect(issues(newPasswordFormSchema, { password: 'Abcdef1!' })).toEqual({
      confirmPassword: codes.CONFIRM_PASSWORD_IS_REQUIRED,
    });
  });
  it.each(strongPasswordCases)('password: %s', (_label, password, code) => {
    expect(issues(newPasswordFormSchema, { password, confirmPassword: password }).password).toBe(code);
  });
});

describe('changePasswordInputSchema and changePasswordFormSchema', () => {
  const valid = { currentPassword: 'old', newPassword: 'Abcdef1!' };
  it('accepts any current password and a strong new one', () => {
    expectValid(changePasswordInputSchema, valid);
    expectValid(changePasswordFormSchema, { ...valid, confirmPassword: 'Abcdef1!' });
  });
  it.each([
    ['current missing', { newPassword: 'Abcdef1!' }, 'currentPassword', codes.PASSWORD_IS_REQUIRED],
    ['current empty', { ...valid, currentPassword: '' }, 'currentPassword', codes.PASSWORD_IS_REQUIRED],
    [
      'current of 256',
      { ...valid, currentPassword: repeat(256) },
      'currentPassword',
      codes.PASSWORD_TOO_LONG,
    ],
    ['new weak', { ...valid, newPassword: 'abcdefgh' }, 'newPassword', codes.PASSWORD_TOO_WEAK],
    ['new of 256', { ...valid, newPassword: `Ab1!${repeat(252)}` }, 'newPassword', codes.PASSWORD_TOO_LONG],
  ])('%s', (_label, input, path, code) => {
    expect(issues(changePasswordInputSchema, input)).toEqual({ [path]: code });
  });
  it('the form adds the confirmation: mismatch at confirmPassword', () => {
    expect(issues(changePasswordFormSchema, { ...valid, confirmPassword: 'Abcdef1@' })).toEqual({
      confirmPassword: codes.PASSWORDS_DO_NOT_MATCH,
    });
    expect(issues(changePasswordFormSchema, valid)).toEqual({
      confirmPassword: codes.CONFIRM_PASSWORD_IS_REQUIRED,
    });
  });
});

describe('updateProfileInputSchema (name 1-60, optional phone 10-15 or empty, language)', () => {
  it('accepts a name alone, with a phone, with an empty phone, with a language', () => {
    expect(expectValid(updateProfileInputSchema, { name: ' Layla ' })).toEqual({ name: 'Layla' });
    expectValid(updateProfileInputSchema, { name: 'Layla', phone: '0123456789' });
    expect(expectValid(updateProfileInputSchema, { name: 'Layla', phone: '' }).phone).toBe('');
    expectValid(updateProfileInputSchema, { name: 'Layla', language: 'ar' });
    expectValid(updateProfileInputSchema, { name: repeat(60) });
  });
  it.each([
    ['name missing', {}, 'name', codes.NAME_IS_REQUIRED],
    ['name of 61', { name: repeat(61) }, 'name', codes.NAME_TOO_LONG],
    ['phone of 9', { name: 'L', phone: '012345678' }, 'phone', codes.PHONE_TOO_SHORT],
    ['phone of 16', { name: 'L', phone: '0123456789012345' }, 'phone', codes.PHONE_TOO_LONG],
    ['phone with letters', { name: 'L', phone: 'phone-number' }, 'phone', codes.PHONE_IS_INVALID],
    ['phone a number', { name: 'L', phone: 1234567890 }, 'phone', codes.PHONE_IS_INVALID],
    ['phone null', { name: 'L', phone: null }, 'phone', codes.PHONE_IS_INVALID],
    ['language', { name: 'L', language: 'de' }, 'language', codes.LANGUAGE_IS_INVALID],
  ])('%s', (_label, input, path, code) => {
    expect(issues(updateProfileInputSchema, input)).toEqual({ [path]: code });
  });
});

describe('every message any of these schemas produces is a code', () => {
  const garbage: unknown[] = [{}, { a: 1 }, { name: [], email: {}, phone: true, password: null }];
  const schemas = {
    loginInputSchema,
    requestAccessInputSchema,
    forgotPasswordInputSchema,
    resetPasswordInputSchema,
    newPasswordFormSchema,
    changePasswordInputSchema,
    changePasswordFormSchema,
    updateProfileInputSchema,
  };
  it.each(Object.entries(schemas))('%s', (_name, schema) => {
    for (const input of garbage) {
      for (const message of Object.values(issues(schema, input))) {
        expect(Object.values(validationCodes)).toContain(message);
      }
    }
  });
});
