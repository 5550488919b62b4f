import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApplicationInput } from './application-input.ts';

/** The port the demo client application listens on: its redirect URI and home page are on it. */
const demoClientPort = 3001;
const demoClientOrigin = `http://localhost:${demoClientPort}`;
/** Where the portal sends the demo client's users back to, exactly. */
export const demoClientRedirectUri = `${demoClientOrigin}/callback`;
const demoClientId = 'dukkan-demo';

const demoLogoFile = 'demo-application-logo.svg';

/** `apps/server/assets/`, found from this file whether it runs from `src/` or the bundle in `dist/`. */
function serverAssetsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, 'assets');
    if (existsSync(join(candidate, demoLogoFile))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`Server assets folder (apps/server/assets/${demoLogoFile}) not found`);
}

/**
 * The demo application registered at first start: a public client (PKCE, no secret) on
 * localhost, priced 250.00 EGP per location per month, with a 14-day free trial.
 */
export function demoApplicationInput(): ApplicationInput {
  return {
    clientId: demoClientId,
    name: { en: 'Demo app', ar: 'التطبيق التجريبي' },
    description: {
      en: 'A sample application that signs in with Dukkan.',
      ar: 'تطبيق تجريبي يسجّل الدخول عبر دكان.',
    },
    homeUrl: `${demoClientOrigin}/`,
    redirectUris: [demoClientRedirectUri],
    clientType: 'public',
    currency: 'EGP',
    monthlyPricePerLocation: 25_000,
    discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
    trialDays: 14,
    logo: join(serverAssetsFolder(), demoLogoFile),
  };
}
