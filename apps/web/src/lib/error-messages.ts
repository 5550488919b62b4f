import { numberFormat, type ValidationCode, type ValidationIssue } from '@dukkan/contract';
import type { TFunction } from 'i18next';
import { isApiError, isOfflineError } from './api-client.ts';

/** "in 5 minutes" / "خلال 5 دقائق": Intl does the plural forms both languages need. */
function retryWhen(seconds: number | undefined, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const wait = Math.max(1, seconds ?? 60);
  return wait < 90 ? format.format(wait, 'second') : format.format(Math.ceil(wait / 60), 'minute');
}

/** The validation code a unique violation on a field stands for ('This code must be unique'). */
const uniqueTargetCodes: Record<string, string> = {
  code: 'CODE_MUST_BE_UNIQUE',
  email: 'EMAIL_ALREADY_EXISTS',
  phone: 'PHONE_ALREADY_EXISTS',
};

function translatedCode(
  code: string | undefined,
  t: TFunction,
  params?: Record<string, string | number>,
): string | undefined {
  if (!code) return undefined;
  const text = t(`validation.${code}` as 'validation.CODE_MUST_BE_UNIQUE', { ...params, defaultValue: '' });
  return text || undefined;
}

/** A refusal's numbers in the reader's digits ('١٢ من السجلات'), as every other number on the page. */
function localizedParams(params: Record<string, string | number> | undefined, language: string) {
  if (!params) return undefined;
  const format = numberFormat(language, { useGrouping: false });
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'number' ? format.format(value) : value,
    ]),
  );
}

/** A business rule refused the call (ROLE_IN_USE, LAST_ADMIN…): its own words, not a generic line. */
function knownIssueText(issues: readonly ValidationIssue[] | undefined, t: TFunction, language: string) {
  for (const issue of issues ?? []) {
    const text = translatedCode(issue.message, t, localizedParams(issue.params, language));
    if (text) return text;
  }
  return undefined;
}

/**
 * The toast text for a failed call the page could not place on a field: translated by code,
 * otherwise the server's message, else 'Something went wrong' (spec §8).
 */
export function describeApiError(error: unknown, t: TFunction, language: string): string {
  if (!isApiError(error)) return t('errors.somethingWentWrong');
  switch (error.code) {
    case 'NETWORK':
      return isOfflineError(error) ? t('errors.offline') : t('errors.network');
    case 'RATE_LIMITED':
      return t('errors.rateLimited', { when: retryWhen(error.body?.retryAfter, language) });
    case 'FORBIDDEN':
      return t('errors.forbidden');
    case 'SECOND_FACTOR_REQUIRED':
      return t('errors.secondFactorRequired');
    case 'CAPTCHA':
      return t('auth.captcha.failed');
    case 'VALIDATION':
      return knownIssueText(error.body?.issues, t, language) ?? t('errors.invalidInput');
    case 'DB':
      return (
        translatedCode(error.body?.target ? uniqueTargetCodes[error.body.target] : undefined, t) ??
        t('errors.alreadyExists')
      );
    case 'INTERNAL':
      return t('errors.somethingWentWrong');
    default:
      return error.message || t('errors.somethingWentWrong');
  }
}

/**
 * Why a save failed, said above its form when no field is to blame: the server's failure as "could
 * not be saved" (`fallback`, the form's own words), anything else — offline, a refused permission,
 * a business rule — in the refusal's own words.
 */
export function describeSaveFailure(
  error: unknown,
  t: TFunction,
  language: string,
  fallback: string,
): string {
  if (!isApiError(error) || error.code === 'INTERNAL') return fallback;
  if (error.code === 'VALIDATION') {
    const own = translatedCode(error.message, t);
    if (own) return own;
  }
  return describeApiError(error, t, language);
}

/**
 * Refusals that stand until something else changes — other records still use this one, the role
 * is held, the member is the last admin: the same click cannot pass before that. Named by their
 * codes' type only: this module is on the login page, and the codes' object is 5 KB.
 */
const standingRefusalCodes: ReadonlySet<string> = new Set<ValidationCode>([
  'RECORD_IN_USE',
  'RECORD_IN_USE_BY',
  'ROLE_IN_USE',
  'LAST_ADMIN',
]);

/** Is this a refusal that trying again cannot change (a record in use)? */
export function isStandingRefusal(error: unknown): boolean {
  if (!isApiError(error) || error.code !== 'VALIDATION') return false;
  return (error.body?.issues ?? []).some((issue) => standingRefusalCodes.has(issue.message));
}
