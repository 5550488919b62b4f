import { z } from 'zod';
import { toLatinDigits } from '../domain/normalize-input.ts';
import { lazySchema } from '../lazy-schema.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { limits } from './fields.ts';

/*
 * Second factors (issue: a second factor at sign-in): authenticator apps (TOTP, RFC 6238),
 * passkeys (WebAuthn) and single-use recovery codes. What the server and the web both read: the
 * methods, the inputs' rules, the answers' shapes, and the names of how a session authenticated.
 */

/** The ways to make the second step. */
export const secondFactorMethods = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

/**
 * How a session authenticated, as RFC 8176 names methods: `pwd` a password, `otp` a one-time
 * code (an authenticator app's, or a recovery code), `hwk` a hardware-bound key (a passkey that
 * cannot leave its device), `swk` a software key (a synced passkey). The ID token's `amr`.
 */
export const authenticationMethods = ['pwd', 'otp', 'hwk', 'swk'] as const;
export type AuthenticationMethod = (typeof authenticationMethods)[number];

/** Whether a session's methods include a second factor: anything beyond the password. */
export const usedSecondFactor = (factors: readonly string[]): boolean =>
  factors.some((factor) => factor !== 'pwd');

/**
 * The ID token's `acr`: the named levels a client may ask for with `acr_values`. Multi-factor is
 * the OpenID PAPE policy's URI, which clients already know; password-only is Dukkan's own.
 */
export const authenticationLevels = {
  password: 'urn:dukkan:acr:password',
  multiFactor: 'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
} as const;

/**
 * Whether a sign-in to an application must first step up: the session has not used a second
 * factor, and the workspace requires one or the client asks for one (`acr_values`, space-separated).
 * The portal's page asks for the step on this rule; the server refuses the code on it.
 */
export function applicationSignInNeedsSecondFactor(sign: {
  factors: readonly string[];
  workspaceRequires: boolean;
  acrValues: string | null | undefined;
}): boolean {
  if (usedSecondFactor(sign.factors)) return false;
  return (
    sign.workspaceRequires || (sign.acrValues ?? '').split(' ').includes(authenticationLevels.multiFactor)
  );
}

/** TOTP codes: six digits, a new one every 30 seconds. */
export const totpDigits = 6;
export const totpPeriodSeconds = 30;
/** How many recovery codes a person holds after generating them. */
export const recoveryCodeCount = 10;
/** How long a sign-in waits for its second step, and an enrolment for its confirmation. */
export const secondStepLifetimeMinutes = 10;

/** A typed one-time code: Arabic-Indic digits read as Latin, spaces ignored. */
const typedCode = (text: string) => toLatinDigits(text).replace(/\s+/g, '');

export const totpCodeField = lazySchema(() =>
  textField(codes.CODE_IS_REQUIRED)
    .overwrite(typedCode)
    .min(1, codes.CODE_IS_REQUIRED)
    .regex(/^\d{6}$/, codes.ONE_TIME_CODE_IS_INVALID),
);

/** A recovery code as printed (`xxxxx-xxxxx-xxxxx`), read case-insensitively without its hyphens. */
export const recoveryCodeField = lazySchema(() =>
  textField(codes.CODE_IS_REQUIRED)
    .overwrite((text) => typedCode(text).replace(/-/g, '').toLowerCase())
    .min(1, codes.CODE_IS_REQUIRED)
    .regex(/^[a-z2-7]{15}$/, codes.RECOVERY_CODE_IS_INVALID),
);

export const factorNameField = lazySchema(() =>
  textField(codes.NAME_IS_REQUIRED)
    .trim()
    .min(1, codes.NAME_IS_REQUIRED)
    .max(limits.name, codes.NAME_TOO_LONG),
);

/** The second step of a sign-in, or a step-up, with a code. */
export const totpStepInputSchema = lazySchema(() => z.object({ code: totpCodeField }));
export const recoveryStepInputSchema = lazySchema(() => z.object({ code: recoveryCodeField }));
/** A passkey's answer to a challenge (WebAuthn's `AuthenticationResponseJSON`), checked by the server. */
/** A passkey's answer: an object with the credential's id; WebAuthn's checks are the server's. */
const passkeyResponseField = lazySchema(() =>
  z.looseObject(
    {
      id: z
        .string({ error: codes.PASSKEY_IS_INVALID })
        .min(1, codes.PASSKEY_IS_INVALID)
        .max(1024, codes.PASSKEY_IS_INVALID),
    },
    { error: codes.PASSKEY_IS_INVALID },
  ),
);

export const passkeyStepInputSchema = lazySchema(() => z.object({ response: passkeyResponseField }));

/**
 * Proof that the person at the keyboard is the account's, asked again before a factor is added or
 * removed or recovery codes are made: the password, or a code of a factor already enrolled.
 */
export const reauthenticationInputSchema = lazySchema(() =>
  z
    .object({
      password: textField(codes.PASSWORD_IS_REQUIRED).max(limits.long, codes.PASSWORD_TOO_LONG).optional(),
      code: textField(codes.CODE_IS_REQUIRED).max(limits.name, codes.CODE_TOO_LONG).optional(),
    })
    .refine((input) => Boolean(input.password || input.code), {
      message: codes.PASSWORD_IS_REQUIRED,
      path: ['password'],
    }),
);
export type ReauthenticationInput = z.infer<typeof reauthenticationInputSchema>;

export const confirmTotpInputSchema = lazySchema(() =>
  z.object({ name: factorNameField, code: totpCodeField }),
);
export type ConfirmTotpInput = z.infer<typeof confirmTotpInputSchema>;

export const registerPasskeyInputSchema = lazySchema(() =>
  z.object({ name: factorNameField, response: passkeyResponseField }),
);

/** `POST auth/login` when the account has a second factor: no session yet, the second step awaits. */
export interface SecondStepRequired {
  secondFactor: { methods: SecondFactorMethod[] };
}

export const isSecondStepRequired = (data: unknown): data is SecondStepRequired =>
  typeof data === 'object' && data !== null && 'secondFactor' in data;

/** One enrolled factor as the profile lists it. */
export interface SecondFactorSummary {
  id: string;
  kind: 'totp' | 'passkey';
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** `GET auth/second-factors`. */
export interface SecondFactorList {
  factors: SecondFactorSummary[];
  /** Unused recovery codes left. */
  recoveryCodesLeft: number;
}

/** `POST auth/second-factors/totp/start`: the seed to scan (as an `otpauth://` URI) or type. */
export interface TotpEnrolment {
  secret: string;
  uri: string;
}

/** A confirmed enrolment; the first factor also brings the person's recovery codes, shown once. */
export interface FactorEnrolled {
  factor: SecondFactorSummary;
  recoveryCodes?: string[];
}

/** One of the person's signed-in sessions, as the profile lists them. */
export interface SessionSummary {
  id: string;
  current: boolean;
  userAgent: string | null;
  address: string | null;
  createdAt: string;
  lastSeenAt: string;
  factors: AuthenticationMethod[];
}
