import { z } from 'zod';
import { normalizedPhonePattern, normalizePhone, normalizeWebsite } from '../domain/normalize-input.ts';
import { lazySchema } from '../lazy-schema.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';

/** Field rules of spec §5, shared by every form and endpoint that takes them. */
export const limits = { name: 60, long: 255, phoneMin: 10, phoneMax: 15, passwordMin: 8 } as const;

const requiredString = (code: string) => textField(code);

export const nameField = lazySchema(() =>
  requiredString(codes.NAME_IS_REQUIRED)
    .trim()
    .min(1, codes.NAME_IS_REQUIRED)
    .max(limits.name, codes.NAME_TOO_LONG),
);

export const emailField = lazySchema(() =>
  requiredString(codes.EMAIL_IS_INVALID)
    .trim()
    .max(limits.long, codes.EMAIL_TOO_LONG)
    .pipe(z.email(codes.EMAIL_IS_INVALID))
    .transform((email) => email.toLowerCase()),
);

/**
 * A phone number, normalized first (`normalizePhone`: Latin digits, no spaces, hyphens, dots or
 * parentheses) and stored so; the spec's rules then apply to that value: an optional leading plus
 * and digits, 10 to 15 characters (`+20 100 123 4567` is 13).
 */
export const phoneField = lazySchema(() =>
  requiredString(codes.PHONE_IS_REQUIRED)
    .overwrite(normalizePhone)
    .min(1, codes.PHONE_IS_REQUIRED)
    .regex(normalizedPhonePattern, codes.PHONE_IS_INVALID)
    .min(limits.phoneMin, codes.PHONE_TOO_SHORT)
    .max(limits.phoneMax, codes.PHONE_TOO_LONG),
);

/**
 * An optional website: empty, or an http(s) URL of at most 255 characters once normalized
 * (`normalizeWebsite`: a bare host gets `https://`, so `shop.example` is `https://shop.example`).
 */
export const optionalWebsiteField = lazySchema(() =>
  textField(codes.URL_IS_INVALID)
    .overwrite(normalizeWebsite)
    .pipe(
      z.union(
        [z.literal(''), z.url({ error: codes.URL_IS_INVALID, protocol: /^https?$/ }).max(limits.long)],
        {
          error: codes.URL_IS_INVALID,
        },
      ),
    ),
);

/** The login form only bounds the length: old passwords may predate the strength rule. */
export const loginPasswordField = lazySchema(() =>
  requiredString(codes.PASSWORD_IS_REQUIRED)
    .min(limits.passwordMin, codes.PASSWORD_TOO_SHORT)
    .max(limits.long, codes.PASSWORD_TOO_LONG),
);

/** Lower case, upper case, a digit and one of !@#$%^&*. */
export const strongPasswordPattern = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).*$/;

export const strongPasswordField = lazySchema(() =>
  requiredString(codes.PASSWORD_TOO_WEAK)
    .min(limits.passwordMin, codes.PASSWORD_TOO_WEAK)
    .max(limits.long, codes.PASSWORD_TOO_LONG)
    .regex(strongPasswordPattern, codes.PASSWORD_TOO_WEAK),
);

export const captchaTokenField = lazySchema(() =>
  textField(codes.CAPTCHA_FAILED).max(20_000, codes.CAPTCHA_FAILED),
);

/** Opaque tokens from mailed links: base64url, bounded so garbage never reaches a query. */
export const linkTokenField = lazySchema(() =>
  requiredString(codes.TOKEN_IS_REQUIRED).min(1, codes.TOKEN_IS_REQUIRED).max(200, codes.TOKEN_IS_INVALID),
);

export const languageField = lazySchema(() => z.enum(['en', 'ar'], { error: codes.LANGUAGE_IS_INVALID }));
