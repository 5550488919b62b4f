import { formatDate, formatMoney, invitationLifetimeDays } from '@dukkan/contract';

export type MailLanguage = 'en' | 'ar';

interface RenderedMail {
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

type SubscriptionPlan = 'monthly' | 'quarterly' | 'semiannually' | 'annually';

const planNames: Record<MailLanguage, Record<SubscriptionPlan, string>> = {
  en: { monthly: 'monthly', quarterly: 'quarterly', semiannually: 'semi-annual', annually: 'annual' },
  ar: {
    monthly: 'الشهرية',
    quarterly: 'الربع سنوية',
    semiannually: 'النصف سنوية',
    annually: 'السنوية',
  },
};

/**
 * What every subscription mail names: the workspace, the application (in the mail's language) and
 * where to act; its dates are written in the workspace's time zone.
 */
export interface SubscriptionMailContext {
  workspaceName: string;
  /** The workspace's IANA time zone. */
  timeZone: string;
  applicationName: string;
  /** The page the mail's button opens (the dashboard, or the invoices). */
  link: string;
}

const subscriptionCopy = {
  requested: {
    en: {
      subject: (app: string) => `Subscription request received: ${app}`,
      lines: (c: SubscriptionMailContext, plan: string) => [
        'Hello,',
        `We received the request of ${c.workspaceName} to subscribe to ${c.applicationName} (${plan} plan).`,
        'The subscription starts once it is approved; we will write to you then.',
      ],
      action: 'Open the dashboard',
    },
    ar: {
      subject: (app: string) => `تلقّينا طلب الاشتراك في ${app}`,
      lines: (c: SubscriptionMailContext, plan: string) => [
        'مرحبًا،',
        `تلقّينا طلب ${c.workspaceName} للاشتراك في ${c.applicationName} (الخطة ${plan}).`,
        'يبدأ الاشتراك فور الموافقة عليه، وسنراسلك حينها.',
      ],
      action: 'فتح لوحة التحكم',
    },
  },
  approved: {
    en: {
      subject: (app: string) => `Your subscription to ${app} is active`,
      lines: (c: SubscriptionMailContext, plan: string, end: string, amount: string) => [
        'Hello,',
        `The subscription of ${c.workspaceName} to ${c.applicationName} (${plan} plan) was approved and is active until ${end}.`,
        `The invoice of this period is ${amount}.`,
      ],
      action: 'View invoices',
    },
    ar: {
      subject: (app: string) => `اشتراكك في ${app} مفعّل`,
      lines: (c: SubscriptionMailContext, plan: string, end: string, amount: string) => [
        'مرحبًا،',
        `تمت الموافقة على اشتراك ${c.workspaceName} في ${c.applicationName} (الخطة ${plan})، وهو مفعّل حتى ${end}.`,
        `قيمة فاتورة هذه الفترة ${amount}.`,
      ],
      action: 'عرض الفواتير',
    },
  },
  rejected: {
    en: {
      subject: (app: string) => `Your subscription request for ${app}`,
      lines: (c: SubscriptionMailContext) => [
        'Hello,',
        `We are sorry: the request of ${c.workspaceName} to subscribe to ${c.applicationName} was not approved.`,
        'You can send a new request from the dashboard.',
      ],
      action: 'Open the dashboard',
    },
    ar: {
      subject: (app: string) => `طلب اشتراكك في ${app}`,
      lines: (c: SubscriptionMailContext) => [
        'مرحبًا،',
        `نأسف، لم تتم الموافقة على طلب ${c.workspaceName} للاشتراك في ${c.applicationName}.`,
        'يمكنك إرسال طلب جديد من لوحة التحكم.',
      ],
      action: 'فتح لوحة التحكم',
    },
  },
  endingSoon: {
    en: {
      trial: {
        subject: (app: string) => `Your free trial of ${app} ends soon`,
        lines: (c: SubscriptionMailContext, end: string) => [
          'Hello,',
          `The free trial of ${c.applicationName} for ${c.workspaceName} ends on ${end}.`,
          'Subscribe from the dashboard to keep using it.',
        ],
      },
      cancelling: {
        subject: (app: string) => `Your subscription to ${app} ends soon`,
        lines: (c: SubscriptionMailContext, end: string) => [
          'Hello,',
          `The subscription of ${c.workspaceName} to ${c.applicationName} was cancelled and ends on ${end}.`,
        ],
      },
      renewing: {
        subject: (app: string) => `Your subscription to ${app} renews soon`,
        lines: (c: SubscriptionMailContext, end: string, amount: string) => [
          'Hello,',
          `The current period of the subscription of ${c.workspaceName} to ${c.applicationName} ends on ${end}.`,
          `The invoice of the next period, ${amount}, will be issued then; pay it to keep using the application.`,
        ],
      },
      action: 'Open the dashboard',
    },
    ar: {
      trial: {
        subject: (app: string) => `تنتهي تجربتك المجانية لتطبيق ${app} قريبًا`,
        lines: (c: SubscriptionMailContext, end: string) => [
          'مرحبًا،',
          `تنتهي التجربة المجانية لتطبيق ${c.applicationName} في ${c.workspaceName} يوم ${end}.`,
          'اشترك من لوحة التحكم لمواصلة استخدامه.',
        ],
      },
      cancelling: {
        subject: (app: string) => `ينتهي اشتراكك في ${app} قريبًا`,
        lines: (c: SubscriptionMailContext, end: string) => [
          'مرحبًا،',
          `أُلغي اشتراك ${c.workspaceName} في ${c.applicationName}، وينتهي يوم ${end}.`,
        ],
      },
      renewing: {
        subject: (app: string) => `يتجدّد اشتراكك في ${app} قريبًا`,
        lines: (c: SubscriptionMailContext, end: string, amount: string) => [
          'مرحبًا،',
          `تنتهي الفترة الحالية من اشتراك ${c.workspaceName} في ${c.applicationName} يوم ${end}.`,
          `ستصدر حينها فاتورة الفترة التالية بقيمة ${amount}؛ سدّدها لمواصلة استخدام التطبيق.`,
        ],
      },
      action: 'فتح لوحة التحكم',
    },
  },
  expired: {
    en: {
      trial: {
        subject: (app: string) => `Your free trial of ${app} has ended`,
        lines: (c: SubscriptionMailContext) => [
          'Hello,',
          `The free trial of ${c.applicationName} for ${c.workspaceName} has ended.`,
          'Subscribe from the dashboard to use it again.',
        ],
      },
      subscription: {
        subject: (app: string) => `Your subscription to ${app} has expired`,
        lines: (c: SubscriptionMailContext) => [
          'Hello,',
          `The subscription of ${c.workspaceName} to ${c.applicationName} has expired.`,
          'Renew it from the dashboard to use the application again.',
        ],
      },
      action: 'Open the dashboard',
    },
    ar: {
      trial: {
        subject: (app: string) => `انتهت تجربتك المجانية لتطبيق ${app}`,
        lines: (c: SubscriptionMailContext) => [
          'مرحبًا،',
          `انتهت التجربة المجانية لتطبيق ${c.applicationName} في ${c.workspaceName}.`,
          'اشترك من لوحة التحكم لاستخدامه مجددًا.',
        ],
      },
      subscription: {
        subject: (app: string) => `انتهى اشتراكك في ${app}`,
        lines: (c: SubscriptionMailContext) => [
          'مرحبًا،',
          `انتهى اشتراك ${c.workspaceName} في ${c.applicationName}.`,
          'جدّد الاشتراك من لوحة التحكم لاستخدام التطبيق مجددًا.',
        ],
      },
      action: 'فتح لوحة التحكم',
    },
  },
} as const;

const rendered = (
  language: MailLanguage,
  subject: string,
  lines: string[],
  action: { label: string; url: string },
): RenderedMail => ({
  subject,
  text: text(lines, action.url),
  html: layout(language, lines, action),
  link: action.url,
});

/** To a workspace's admins: its subscription request waits for the operator. */
export function subscriptionRequestedMail(
  language: MailLanguage,
  context: SubscriptionMailContext & { plan: SubscriptionPlan },
): RenderedMail {
  const mail = subscriptionCopy.requested[language];
  const lines = mail.lines(context, planNames[language][context.plan]);
  return rendered(language, mail.subject(context.applicationName), [...lines], {
    label: mail.action,
    url: context.link,
  });
}

/** To a workspace's admins: the operator approved the subscription; its period's end and first invoice. */
export function subscriptionApprovedMail(
  language: MailLanguage,
  context: SubscriptionMailContext & {
    plan: SubscriptionPlan;
    periodEnd: Date;
    amount: number;
    currency: string;
  },
): RenderedMail {
  const mail = subscriptionCopy.approved[language];
  const lines = mail.lines(
    context,
    planNames[language][context.plan],
    formatDate(context.periodEnd, language, context.timeZone),
    formatMoney(context.amount, context.currency, language),
  );
  return rendered(language, mail.subject(context.applicationName), [...lines], {
    label: mail.action,
    url: context.link,
  });
}

/** To a workspace's admins: the operator rejected the subscription request. */
export function subscriptionRejectedMail(
  language: MailLanguage,
  context: SubscriptionMailContext,
): RenderedMail {
  const mail = subscriptionCopy.rejected[language];
  return rendered(language, mail.subject(context.applicationName), [...mail.lines(context)], {
    label: mail.action,
    url: context.link,
  });
}

/**
 * To a workspace's admins, three days ahead: a free trial or a cancelled subscription ends, or a
 * period ends and the next one's invoice (`next`) is issued.
 */
export function subscriptionEndingSoonMail(
  language: MailLanguage,
  context: SubscriptionMailContext & {
    kind: 'trial' | 'cancelling' | 'renewing';
    endDate: Date;
    next?: { amount: number; currency: string };
  },
): RenderedMail {
  const copy = subscriptionCopy.endingSoon[language];
  const end = formatDate(context.endDate, language, context.timeZone);
  const mail = copy[context.kind];
  const amount = context.next ? formatMoney(context.next.amount, context.next.currency, language) : '';
  const lines = mail.lines(context, end, amount);
  return rendered(language, mail.subject(context.applicationName), [...lines], {
    label: copy.action,
    url: context.link,
  });
}

/** To a workspace's admins: a free trial or a subscription has ended. */
export function subscriptionExpiredMail(
  language: MailLanguage,
  context: SubscriptionMailContext & { kind: 'trial' | 'subscription' },
): RenderedMail {
  const copy = subscriptionCopy.expired[language];
  const mail = copy[context.kind];
  return rendered(language, mail.subject(context.applicationName), [...mail.lines(context)], {
    label: copy.action,
    url: context.link,
  });
}
