import type { AltchaChallenge, CaptchaConfig } from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import { solveChallenge } from 'altcha-lib';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

/** Solves an ALTCHA proof of work in the background; the token is the base64 payload the server verifies. */
async function solveAltcha(signal: AbortSignal): Promise<string> {
  const challenge = await apiRequest<AltchaChallenge>('/captcha/challenge', { signal });
  const solving = solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  );
  signal.addEventListener('abort', () => solving.controller.abort(), { once: true });
  const solution = await solving.promise;
  if (!solution)
    throw new Error(signal.aborted ? 'Captcha solving was cancelled' : 'Captcha challenge has no solution');
  const { algorithm, salt, signature } = challenge;
  return btoa(
    JSON.stringify({ algorithm, challenge: challenge.challenge, number: solution.number, salt, signature }),
  );
}

let recaptchaScript: Promise<Grecaptcha> | undefined;

/** Google's script is added only on servers configured for reCAPTCHA, and only once. */
function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  recaptchaScript ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const grecaptcha = window.grecaptcha;
      if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
      else reject(new Error('reCAPTCHA did not load'));
    };
    script.onerror = () => {
      recaptchaScript = undefined;
      reject(new Error('reCAPTCHA did not load'));
    };
    document.head.append(script);
  });
  return recaptchaScript;
}

interface PendingSolution {
  promise: Promise<string>;
  controller: AbortController;
}

/**
 * The invisible captcha of the public forms. With ALTCHA a challenge is fetched and solved as soon
 * as the page opens; `getToken()` waits for that solution. Tokens are single-use, so a page calls
 * `reset()` after every failed submit to start on a fresh challenge.
 */
export function useInvisibleCaptcha(action: string) {
  const config = useQuery({
    queryKey: queryKeys.captchaConfig,
    queryFn: ({ signal }) => apiRequest<CaptchaConfig>('/captcha/config', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const provider = config.data?.provider;
  const pending = useRef<PendingSolution | null>(null);
  const [isSolving, setIsSolving] = useState(false);

  const startSolving = useCallback((): PendingSolution => {
    pending.current?.controller.abort();
    const controller = new AbortController();
    const promise = solveAltcha(controller.signal);
    const current = { promise, controller };
    pending.current = current;
    setIsSolving(true);
    promise
      .catch(() => undefined)
      .finally(() => {
        if (pending.current === current) setIsSolving(false);
      });
    return current;
  }, []);

  useEffect(() => {
    if (provider === 'altcha') {
      startSolving();
      return () => pending.current?.controller.abort();
    }
    if (config.data?.provider === 'recaptcha') void loadRecaptcha(config.data.siteKey).catch(() => undefined);
    return undefined;
  }, [provider, config.data, startSolving]);

  const getToken = useCallback(async (): Promise<string> => {
    const settings = config.data ?? (await config.refetch({ throwOnError: true })).data;
    if (!settings) throw new Error('Captcha settings are unavailable');
    if (settings.provider === 'recaptcha') {
      const grecaptcha = await loadRecaptcha(settings.siteKey);
      return grecaptcha.execute(settings.siteKey, { action });
    }
    const current = pending.current ?? startSolving();
    try {
      return await current.promise;
    } catch {
      // A solve that failed (or a challenge that could not be fetched) gets one fresh attempt.
      return startSolving().promise;
    }
  }, [action, config, startSolving]);

  const reset = useCallback(() => {
    if (provider === 'altcha') startSolving();
  }, [provider, startSolving]);

  return { getToken, reset, isSolving };
}
