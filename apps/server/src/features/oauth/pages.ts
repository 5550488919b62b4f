import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { applications, users } from '../../db/schema/index.ts';
import { escapeHtml, type MailLanguage } from '../../platform/mail/render.ts';

/*
 * The authorization server's own pages (signing out of an application): served before any Dukkan
 * page loads, so they carry Dukkan's look themselves — its colours, its typeface when the web app
 * is built beside the server, light or dark as the system says — in one language, chosen by
 * `providerPageLanguage`. No script.
 */

/** The language cookie the web app writes whenever its language is set (`apps/web/src/i18n/i18n.ts`). */
export const languageCookie = 'dukkan_language';

function supported(tag: string | undefined | null): MailLanguage | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return primary === 'ar' || primary === 'en' ? primary : undefined;
}

/** `Accept-Language`'s languages by their weight (`q`), the first the product has. */
function fromAcceptLanguage(header: string | undefined): MailLanguage | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(';');
      const q = parameters.map((parameter) => parameter.trim().match(/^q=([\d.]+)$/)?.[1]).find(Boolean);
      return { tag, weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((entry) => supported(entry.tag)).find(Boolean);
}

/**
 * The one language of the provider's pages: the signed-in person's saved language, else the
 * first of the client's `ui_locales` the product has, else the web app's language cookie, else
 * the browser's `Accept-Language`, else English.
 */
export function providerPageLanguage(sources: {
  saved?: MailLanguage | null;
  uiLocales?: unknown;
  cookie?: string | null;
  acceptLanguage?: string;
}): MailLanguage {
  const uiLocales =
    typeof sources.uiLocales === 'string'
      ? sources.uiLocales.split(/\s+/).map(supported).find(Boolean)
      : undefined;
  return (
    sources.saved ??
    uiLocales ??
    supported(sources.cookie) ??
    fromAcceptLanguage(sources.acceptLanguage) ??
    'en'
  );
}

const texts = {
  en: {
    product: 'Dukkan',
    signOutTitle: 'Sign out',
    signOutHeading: (app: string) => `Sign out of ${app}?`,
    signOutBody: (app: string) => `${app} asks to end your sign-in to it.`,
    signOut: 'Sign out',
    stay: 'Stay signed in',
    signedOutTitle: 'Signed out',
    signedOutHeading: (app: string) => `You are signed out of ${app}.`,
    signedOutBody: 'You can close this page.',
  },
  ar: {
    product: 'دكّان',
    signOutTitle: 'تسجيل الخروج',
    signOutHeading: (app: string) => `تسجيل الخروج من ${app}؟`,
    signOutBody: (app: string) => `يطلب ${app} إنهاء تسجيل دخولك إليه.`,
    signOut: 'تسجيل الخروج',
    stay: 'البقاء مسجَّل الدخول',
    signedOutTitle: 'تم تسجيل الخروج',
    signedOutHeading: (app: string) => `تم تسجيل خروجك من ${app}.`,
    signedOutBody: 'يمكنك إغلاق هذه الصفحة.',
  },
} as const;

/*
 * The web app's palette (apps/web/src/index.css: brand = teal one step deeper, slate greys), its
 * card, and its primary and secondary buttons, light and dark.
 */
const style = `
:root{color-scheme:light dark;--bg:#f8fafc;--glow:#f0fdfa;--card:#fff;--border:#e2e8f0;--text:#0f172a;--muted:#475569;--primary:#0f766e;--on-primary:#fff;--button-border:#cbd5e1;--mark:#0f766e}
@media (prefers-color-scheme:dark){:root{--bg:#020617;--glow:#04201f;--card:#0f172a;--border:#1e293b;--text:#f1f5f9;--muted:#94a3b8;--primary:#14b8a6;--on-primary:#020617;--button-border:#334155;--mark:#14b8a6}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:linear-gradient(var(--glow),var(--bg) 40%);color:var(--text);font:16px/1.5 "IBM Plex Sans Arabic",ui-sans-serif,system-ui,sans-serif;-webkit-font-smoothing:antialiased}
[dir=rtl] body{line-height:1.6}
header{display:flex;align-items:center;gap:10px;padding:12px 24px;font-size:1.125rem;font-weight:600}
header svg{width:36px;height:36px;flex:none}
main{flex:1;display:flex;justify-content:center;align-items:center;padding:24px 16px 64px}
.card{background:var(--card);border:1px solid var(--border);border-radius:16px;padding:32px;max-width:448px;width:100%;box-shadow:0 10px 15px -3px rgba(15,23,42,.05)}
@media (max-width:639px){.card{padding:24px}main{align-items:flex-start}}
h1{font-size:1.25rem;font-weight:600;margin:0 0 8px;overflow-wrap:anywhere}
p{margin:0;color:var(--muted);font-size:.875rem}
.actions{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:24px}
button{font:inherit;font-size:.875rem;font-weight:600;min-height:40px;padding:8px 16px;border-radius:8px;cursor:pointer;border:1px solid var(--button-border);background:var(--card);color:var(--text)}
button[value=yes]{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
button:focus-visible{outline:2px solid var(--primary);outline-offset:2px}`;

const brandMark = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="9" fill="var(--mark)"/><path d="M9 13h14l-1.4 10.2a1.5 1.5 0 0 1-1.5 1.3h-8.2a1.5 1.5 0 0 1-1.5-1.3Z" fill="#fff"/><path d="M12.5 13a3.5 3.5 0 0 1 7 0" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>`;

/**
 * The `@font-face` rules of the web app's regular and semibold faces, as its build wrote them
 * (hashed file names under `/assets/`, one rule per script subset): the provider's pages then use
 * the files a visitor of the app already has. Empty without a built web app (the system's face).
 */
export function webFontFaces(webDist: string | undefined): string {
  if (!webDist) return '';
  const assets = join(webDist, 'assets');
  let files: string[];
  try {
    files = readdirSync(assets).filter((file) => file.endsWith('.css'));
  } catch {
    return '';
  }
  const rules = files.flatMap(
    (file) => readFileSync(join(assets, file), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [],
  );
  return rules
    .filter((rule) => /IBM Plex Sans Arabic/.test(rule) && /font-weight:\s*(400|600)\b/.test(rule))
    .join('');
}

interface PageOptions {
  db: Database;
  fontFaces: string;
  /** The Dukkan session's user behind the request's cookie, when signed in to Dukkan. */
  dukkanUser: (ctx: KoaContextWithOIDC) => Promise<string | undefined>;
}

async function pageLanguage(ctx: KoaContextWithOIDC, options: PageOptions): Promise<MailLanguage> {
  const userId = ctx.oidc.session?.accountId ?? (await options.dukkanUser(ctx));
  let saved: MailLanguage | null = null;
  if (userId) {
    const [user] = await options.db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    saved = user?.language ?? null;
  }
  return providerPageLanguage({
    saved,
    uiLocales: ctx.oidc.params?.ui_locales,
    cookie: ctx.cookies.get(languageCookie, { signed: false }),
    acceptLanguage: ctx.get('accept-language'),
  });
}

/** The client's name in the page's language (the provider knows only the English one). */
async function applicationName(
  ctx: KoaContextWithOIDC,
  db: Database,
  language: MailLanguage,
): Promise<string> {
  const clientId = ctx.oidc.client?.clientId;
  if (!clientId) return texts[language].product;
  const [row] = await db
    .select({ nameEn: applications.nameEn, nameAr: applications.nameAr })
    .from(applications)
    .where(eq(applications.clientId, clientId))
    .limit(1);
  const name = language === 'ar' ? row?.nameAr || row?.nameEn : row?.nameEn;
  return name || ctx.oidc.client?.clientName || clientId;
}

function page(language: MailLanguage, fontFaces: string, title: string, body: string): string {
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const product = texts[language].product;
  return `<!DOCTYPE html>
<html lang="${language}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${product}</title><style>${fontFaces}${style}</style></head>
<body><header>${brandMark}<span>${product}</span></header>
<main><div class="card">${body}</div></main></body>
</html>`;
}

/** The provider's two pages, in the reader's language and Dukkan's look. */
export function providerPages(options: PageOptions) {
  return {
    /**
     * Asks before signing out (the request may come from anywhere, so it is confirmed with the
     * provider's form and its CSRF token). The form's answer redirects to the application, so
     * this page's policy lets a form lead there (`form-action`), and only there.
     */
    async logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
      const language = await pageLanguage(ctx, options);
      const text = texts[language];
      const name = escapeHtml(await applicationName(ctx, options.db, language));
      const target = ctx.oidc.params?.post_logout_redirect_uri;
      const policy = ctx.response.get('content-security-policy');
      if (typeof target === 'string' && policy) {
        const origin = new URL(target).origin;
        ctx.set(
          'content-security-policy',
          policy.replace("form-action 'self'", `form-action 'self' ${origin}`),
        );
      }
      ctx.set('content-language', language);
      ctx.type = 'html';
      ctx.body = page(
        language,
        options.fontFaces,
        text.signOutTitle,
        `${form}
<h1>${text.signOutHeading(name)}</h1><p>${text.signOutBody(name)}</p>
<div class="actions">
<button type="submit" form="op.logoutForm">${text.stay}</button>
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${text.signOut}</button>
</div>`,
      );
    },

    /** After signing out when the application named no address to return to. */
    async postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      const language = await pageLanguage(ctx, options);
      const text = texts[language];
      const name = escapeHtml(await applicationName(ctx, options.db, language));
      ctx.set('content-language', language);
      ctx.type = 'html';
      ctx.body = page(
        language,
        options.fontFaces,
        text.signedOutTitle,
        `<h1>${text.signedOutHeading(name)}</h1><p>${text.signedOutBody}</p>`,
      );
    },
  };
}
