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
      lines: [
        'Hello,',
        'Thank you for requesting access to Dukkan. We will review your request and write to you at this address.',
        'If you did not ask for access, ignore this mail.',
      ],
    },
    ar: {
      subject: 'تلقّينا طلبك للانضمام إلى دكّان',
      lines: [
        'مرحبًا،',
        'شكرًا لطلبك الوصول إلى دكّان. سنراجع طلبك ونراسلك على هذا العنوان.',
        'إن لم تطلب الوصول، فتجاهل هذه الرسالة.',
      ],
    },
  },
  invitation: {
    en: {
      subject: (workspace: string) => `You are invited to ${workspace} on Dukkan`,
      lines: (workspace: string, inviter: string | null, days: number) => [
        'Hello,',
        inviter
          ? `${inviter} invited you to join ${workspace} on Dukkan.`
          : `The workspace ${workspace} is ready for you on Dukkan.`,
        `Accept the invitation with the link below within ${days} days. If you have no Dukkan account yet, you will then choose your password.`,
        'If you did not expect this invitation, ignore this mail.',
      ],
      action: 'Accept invitation',
    },
    ar: {
      subject: (workspace: string) => `دعوة للانضمام إلى ${workspace} على دكّان`,
      lines: (workspace: string, inviter: string | null, days: number) => [
        'مرحبًا،',
        inviter
          ? `دعاك ${inviter} للانضمام إلى ${workspace} على دكّان.`
          : `مساحة العمل ${workspace} جاهزة لك على دكّان.`,
        `اقبل الدعوة من الرابط أدناه خلال ${days} أيام. إن لم يكن لديك حساب في دكّان بعد، فستختار كلمة مرورك بعد ذلك.`,
        'إن لم تكن تتوقع هذه الدعوة، فتجاهل هذه الرسالة.',
      ],
      action: 'قبول الدعوة',
    },
  },
  accessRequestRejected: {
    en: {
      subject: 'Your request for Dukkan',
      lines: [
        'Hello,',
        'Thank you for your interest in Dukkan. We are sorry, but we cannot open a workspace for your request at this time.',
      ],
    },
    ar: {
      subject: 'طلبك للانضمام إلى دكّان',
      lines: ['مرحبًا،', 'شكرًا لاهتمامك بدكّان. نأسف، لا يمكننا فتح مساحة عمل لطلبك في الوقت الحالي.'],
    },
  },
} as const;

/** How long an invitation link stays valid, in days (mentioned in the mail). */
export const invitationLifetimeDays = 7;

/** An invitation to a workspace, by a member (`inviter`) or by the operator (null). */
export function invitationMail(
  language: MailLanguage,
  invitation: { workspaceName: string; inviterName: string | null; link: string },
): RenderedMail {
  const mail = copy.invitation[language];
  const lines = mail.lines(invitation.workspaceName, invitation.inviterName, invitationLifetimeDays);
  return {
    subject: mail.subject(invitation.workspaceName),
    text: text(lines, invitation.link),
    html: layout(language, lines, { label: mail.action, url: invitation.link }),
    link: invitation.link,
  };
}

/**
 * To the requester, whose address nobody has verified: a fixed text, never what the request
 * said (a name or company typed in would reach any address as Dukkan's mail).
 */
export function accessRequestRejectedMail(language: MailLanguage): RenderedMail {
  const mail = copy.accessRequestRejected[language];
  const lines = [...mail.lines];
  return { subject: mail.subject, text: text(lines), html: layout(language, lines) };
}

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

/** To the requester, whose address nobody has verified: a fixed text (see accessRequestRejectedMail). */
export function accessRequestReceivedMail(language: MailLanguage): RenderedMail {
  const mail = copy.accessRequestReceived[language];
  const lines = [...mail.lines];
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
