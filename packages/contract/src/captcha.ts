/** `GET /api/captcha/config`: which invisible captcha the pages run. */
export type CaptchaConfig = { provider: 'altcha' } | { provider: 'recaptcha'; siteKey: string };

/** `GET /api/captcha/challenge` (ALTCHA): solved in the background by the page. */
export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}
