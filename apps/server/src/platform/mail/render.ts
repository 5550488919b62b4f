/**
 * How every mail looks: one layout, right-to-left for Arabic, a plain-text twin, and the link it
 * asks to open. The features own their mails' texts and call `renderMail` with them.
 */
export type MailLanguage = 'en' | 'ar';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  link?: string;
}

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

/** One layout for every mail, right-to-left for Arabic. */
function layout(
  language: MailLanguage,
  paragraphs: readonly string[],
  action?: { label: string; url: string },
): string {
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>\n<p style="font-size:12px;color:#555">${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html lang="${language}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.5">\n${body}\n${button}\n<p>— Dukkan</p></body></html>`;
}

const text = (paragraphs: readonly string[], link?: string) =>
  [...paragraphs, ...(link ? [link] : []), '— Dukkan'].join('\n\n');

/** A mail of `lines`, with a button to `action.url` when it asks the reader to open one. */
export function renderMail(
  language: MailLanguage,
  subject: string,
  lines: readonly string[],
  action?: { label: string; url: string },
): RenderedMail {
  return {
    subject,
    text: text(lines, action?.url),
    html: layout(language, lines, action),
    ...(action ? { link: action.url } : {}),
  };
}
