export type MailLanguage = 'en' | 'ar';

interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  link?: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

/** One layout for every mail, right-to-left for Arabic. */
function layout(
  language: MailLanguage,
  paragraphs: string[],
  action?: { label: string; url: string },
): string {
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>\n<p style="font-size:12px;color:#555">${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html lang="${language}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.5">\n${body}\n${button}\n<p>— Dukkan</p></body></html>`;
}

const text = (paragraphs: string[], link?: string) =>
  [...paragraphs, ...(link ? [link] : []), '— Dukkan'].join('\n\n');

const copy = {
  passwordReset: {
    en: {
      subject: 'Reset your Dukkan password',
      lines: (name: string) => [
        `Hello ${name},`,
        'Someone asked to reset the password of your Dukkan account. Use the link below within one hour to choose a new password.',
        'If it was not you, ignore this mail: your password stays as it is.',
      ],
      action: 'Reset password',
    },
    ar: {
      subject: 'إعادة تعيين كلمة مرور دكّان',
      lines: (name: string) => [
        `مرحبًا ${name}،`,
        'طلب أحدهم إعادة تعيين كلمة مرور حسابك في دكّان. استخدم الرابط أدناه خلال ساعة واحدة لاختيار كلمة مرور جديدة.',
        'إن لم تكن أنت، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
      ],
      action: 'إعادة تعيين كلمة المرور',
    },
  },
  accessRequestReceived: {
    en: {
      subject: 'We received your request for Dukkan',
      lines: (name: string, company: string) => [
        `Hello ${name},`,
        `Thank you for requesting access to Dukkan for ${company}. We will review your request and write to you at this address.`,
      ],
    },
    ar: {
      subject: 'تلقّينا طلبك للانضمام إلى دكّان',
      lines: (name: string, company: string) => [
        `مرحبًا ${name}،`,
        `شكرًا لطلبك الوصول إلى دكّان لصالح ${company}. سنراجع طلبك ونراسلك على هذا العنوان.`,
      ],
    },
  },
} as const;

export function passwordResetMail(language: MailLanguage, name: string, link: string): RenderedMail {
  const mail = copy.passwordReset[language];
  const lines = mail.lines(name);
  return {
    subject: mail.subject,
    text: text(lines, link),
    html: layout(language, lines, { label: mail.action, url: link }),
    link,
  };
}

export function accessRequestReceivedMail(
  language: MailLanguage,
  name: string,
  company: string,
): RenderedMail {
  const mail = copy.accessRequestReceived[language];
  const lines = mail.lines(name, company);
  return { subject: mail.subject, text: text(lines), html: layout(language, lines) };
}

/** To the operator, in English: the details of a new access request. */
export function accessRequestNoticeMail(request: Record<string, string | null | undefined>): RenderedMail {
  const lines = [
    'A new access request was submitted:',
    ...Object.entries(request).map(([field, value]) => `${field}: ${value ?? '-'}`),
    'Approve or reject it with `npm run dukkan -- requests`.',
  ];
  return {
    subject: `Dukkan access request: ${request.companyName ?? ''}`,
    text: text(lines),
    html: layout('en', lines),
  };
}
