import { escapeHtml } from './escape-html.ts';
import type { SignedIn } from './sessions.ts';

const styles = `
  body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
  h1 { font-size: 1.5rem; }
  .card { border: 1px solid #d0d7de; border-radius: 8px; padding: 1.25rem; }
  .user { display: flex; gap: 1rem; align-items: center; }
  .user img { width: 64px; height: 64px; border-radius: 50%; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; }
  dt { color: #656d76; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .actions { display: flex; gap: 0.5rem; margin-top: 1rem; }
  .button { display: inline-block; padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid #1f6feb;
    background: #1f6feb; color: #fff; font: inherit; text-decoration: none; cursor: pointer; }
  .button.secondary { background: #fff; color: #1f6feb; }
  .notice { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 0.75rem; }
  .error { background: #ffebe9; border: 1px solid #ff8182; border-radius: 6px; padding: 0.75rem; }
`;

/** Every page: the same head and a little CSS. `body` must already be escaped HTML. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Demo app</title>
<style>${styles}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function noticeBlock(notice: string | undefined): string {
  return notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '';
}

/** The home page of a visitor who is not signed in. */
export function signedOutPage(notice?: string): string {
  return layout(
    'Welcome',
    `<h1>Demo app</h1>
${noticeBlock(notice)}
<p>This application has no accounts of its own: you sign in with your Dukkan account, in the workspace you choose there.</p>
<p><a class="button" href="/login">Sign in with Dukkan</a></p>`,
  );
}

/** The home page of a signed-in user: who they are, which workspace, and the access token's expiry. */
export function signedInPage(signedIn: SignedIn, now: number, notice?: string): string {
  const { user, tokens } = signedIn;
  const picture = user.picture ? `<img src="${escapeHtml(user.picture)}" alt="">` : '';
  return layout(
    'Signed in',
    `<h1>Demo app</h1>
${noticeBlock(notice)}
<div class="card">
<div class="user">${picture}<div><strong>${escapeHtml(user.name ?? user.sub)}</strong><br>${escapeHtml(user.email ?? '')}</div></div>
<dl>
<dt>Workspace</dt><dd>${escapeHtml(user.workspace_name ?? '(none)')}</dd>
<dt>Workspace id</dt><dd>${escapeHtml(user.workspace_id ?? '(none)')}</dd>
<dt>User id</dt><dd>${escapeHtml(user.sub)}</dd>
<dt>Access token</dt><dd>${escapeHtml(describeExpiry(tokens.accessTokenExpiresAt, now))}</dd>
</dl>
<div class="actions">
<form method="post" action="/refresh"><button class="button secondary" type="submit">Refresh</button></form>
<form method="post" action="/logout"><button class="button" type="submit">Sign out</button></form>
</div>
</div>`,
  );
}

/** Something went wrong on the way through Dukkan (e.g. access_denied): what, and a way back. */
export function errorPage(title: string, error: string, description?: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<div class="error" role="alert"><strong>${escapeHtml(error)}</strong>${description ? `<br>${escapeHtml(description)}` : ''}</div>
<p><a href="/">Back to the home page</a></p>`,
  );
}

export function notFoundPage(): string {
  return errorPage('Not found', 'There is no such page here.');
}

/** "expires at 2026-01-01 10:00:00 UTC (in 59 min)", or that it has expired. */
export function describeExpiry(expiresAt: number | undefined, now: number): string {
  if (expiresAt === undefined) return 'Dukkan did not say when it expires';
  const at = new Date(expiresAt)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const minutes = Math.floor(Math.abs(expiresAt - now) / 60_000);
  const span = minutes < 1 ? 'less than a minute' : `${minutes} min`;
  return expiresAt > now ? `expires at ${at} (in ${span})` : `expired at ${at} (${span} ago)`;
}
