import { isApiError } from '../../lib/api-client.ts';

/** A refused captcha: the CAPTCHA code, or a VALIDATION issue on the token field. */
export function isCaptchaError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.code === 'CAPTCHA') return true;
  return (
    error.code === 'VALIDATION' && (error.body?.issues ?? []).some((issue) => issue.path === 'reCaptchaToken')
  );
}
