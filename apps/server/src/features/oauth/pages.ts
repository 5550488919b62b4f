import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml } from '../../platform/mail/render.ts';

/*
 * The authorization server's own two pages (signing out of an application), in English and
 * Arabic side by side: they are served before any Dukkan page loads, so they cannot know the
 * reader's language. No script; the theme follows the system's.
 */

const style = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#1f2933;--muted:#52606d;--primary:#0f5f58}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--card:#1b2026;--text:#e6e9ed;--muted:#aab4be;--primary:#5fd4c6}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,sans-serif}
main{background:var(--card);border-radius:12px;padding:32px;max-width:420px;width:calc(100% - 64px);box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.25rem;margin:0 0 8px}p{margin:0 0 16px;color:var(--muted)}
section+section{border-top:1px solid rgba(127,127,127,.3);margin-top:16px;padding-top:16px}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin-top:24px}
button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid var(--primary);cursor:pointer;background:transparent;color:var(--primary)}
button[value=yes]{background:var(--primary);color:var(--card)}
button:focus-visible{outline:3px solid var(--primary);outline-offset:2px}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${style}</style></head>
<body><main>${body}</main></body>
</html>`;
}

function applicationName(ctx: KoaContextWithOIDC): string {
  return ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? 'Dukkan';
}

/**
 * Asks before signing out (the request may come from anywhere, so it is confirmed with the
 * provider's form and its CSRF token). The form's answer redirects to the application, so this
 * page's policy lets a form lead there (`form-action`), and only there.
 */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const name = escapeHtml(applicationName(ctx));
  const target = ctx.oidc.params?.post_logout_redirect_uri;
  const policy = ctx.response.get('content-security-policy');
  if (typeof target === 'string' && policy) {
    const origin = new URL(target).origin;
    ctx.set('content-security-policy', policy.replace("form-action 'self'", `form-action 'self' ${origin}`));
  }
  ctx.type = 'html';
  ctx.body = page(
    'Sign out',
    `${form}
<section><h1>Sign out of ${name}?</h1><p>${name} asks to end your sign-in to it.</p></section>
<section dir="rtl" lang="ar"><h1>تسجيل الخروج من ${name}؟</h1><p>يطلب ${name} إنهاء تسجيل دخولك إليه.</p></section>
<div class="actions">
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out · تسجيل الخروج</button>
<button type="submit" form="op.logoutForm">Stay signed in · البقاء</button>
</div>`,
  );
}

/** After signing out when the application named no address to return to. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  const name = escapeHtml(applicationName(ctx));
  ctx.type = 'html';
  ctx.body = page(
    'Signed out',
    `<section><h1>You are signed out of ${name}.</h1><p>You can close this page.</p></section>
<section dir="rtl" lang="ar"><h1>تم تسجيل خروجك من ${name}.</h1><p>يمكنك إغلاق هذه الصفحة.</p></section>`,
  );
}
