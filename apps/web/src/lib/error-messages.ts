import type { TFunction } from 'i18next';
import { isApiError } from './api-client.ts';

/** "in 5 minutes" / "خلال 5 دقائق": Intl does the plural forms both languages need. */
function retryWhen(seconds: number | undefined, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const wait = Math.max(1, seconds ?? 60);
  return wait < 90 ? format.format(wait, 'second') : format.format(Math.ceil(wait / 60), 'minute');
}

/**
 * The toast text for a failed call the page could not place on a field: translated by code,
 * otherwise the server's message, else 'Something went wrong' (spec §8).
 */
export function describeApiError(error: unknown, t: TFunction, language: string): string {
  if (!isApiError(error)) return t('errors.somethingWentWrong');
  switch (error.code) {
    case 'NETWORK':
      return t('errors.network');
    case 'RATE_LIMITED':
      return t('errors.rateLimited', { when: retryWhen(error.body?.retryAfter, language) });
    case 'FORBIDDEN':
      return t('errors.forbidden');
    case 'CAPTCHA':
      return t('auth.captcha.failed');
    case 'VALIDATION':
      return t('errors.invalidInput');
    case 'DB':
      return t('errors.alreadyExists');
    case 'INTERNAL':
      return t('errors.somethingWentWrong');
    default:
      return error.message || t('errors.somethingWentWrong');
  }
}
