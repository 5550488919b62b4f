import { formatDate, formatMoney, numberFormat } from '@dukkan/contract';
import { type MailLanguage, type RenderedMail, renderMail } from '../../platform/mail/render.ts';

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
      lines: (c: SubscriptionMailContext, plan: string, amount: string | null) => [
        'Hello,',
        `We received the request of ${c.workspaceName} to subscribe to ${c.applicationName} (${plan} plan).`,
        amount
          ? `Its first invoice, ${amount}, is waiting: pay it by card from the invoices page and the subscription starts at once.`
          : 'The subscription starts once it is approved; we will write to you then.',
      ],
      action: 'Open the dashboard',
    },
    ar: {
      subject: (app: string) => `تلقّينا طلب الاشتراك في ${app}`,
      lines: (c: SubscriptionMailContext, plan: string, amount: string | null) => [
        'مرحبًا،',
        `تلقّينا طلب ${c.workspaceName} للاشتراك في ${c.applicationName} (الخطة ${plan}).`,
        amount
          ? `فاتورته الأولى بقيمة ${amount} بانتظار الدفع: ادفعها بالبطاقة من صفحة الفواتير ويبدأ الاشتراك فورًا.`
          : 'يبدأ الاشتراك فور الموافقة عليه، وسنراسلك حينها.',
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
  activated: {
    en: {
      subject: (app: string) => `Your subscription to ${app} is active`,
      lines: (c: SubscriptionMailContext, plan: string, end: string, amount: string) => [
        'Hello,',
        `The payment of ${amount} was received: the subscription of ${c.workspaceName} to ${c.applicationName} (${plan} plan) is active until ${end}.`,
      ],
      action: 'View invoices',
    },
    ar: {
      subject: (app: string) => `اشتراكك في ${app} مفعّل`,
      lines: (c: SubscriptionMailContext, plan: string, end: string, amount: string) => [
        'مرحبًا،',
        `وصلنا دفع ${amount}: اشتراك ${c.workspaceName} في ${c.applicationName} (الخطة ${plan}) مفعّل حتى ${end}.`,
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

/** To a workspace's admins: its subscription request waits for the operator. */
export function subscriptionRequestedMail(
  language: MailLanguage,
  context: SubscriptionMailContext & {
    plan: SubscriptionPlan;
    /** Its first invoice, issued with the request to be paid through a hosted checkout. */
    invoice?: { amount: number; currency: string } | null;
  },
): RenderedMail {
  const mail = subscriptionCopy.requested[language];
  const amount = context.invoice
    ? formatMoney(context.invoice.amount, context.invoice.currency, language)
    : null;
  const lines = mail.lines(context, planNames[language][context.plan], amount);
  return renderMail(language, mail.subject(context.applicationName), [...lines], {
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
    /** Activated by its first invoice's payment (a hosted checkout) rather than approved by the operator. */
    paid?: boolean;
  },
): RenderedMail {
  const mail = subscriptionCopy[context.paid ? 'activated' : 'approved'][language];
  const lines = mail.lines(
    context,
    planNames[language][context.plan],
    formatDate(context.periodEnd, language, context.timeZone),
    formatMoney(context.amount, context.currency, language),
  );
  return renderMail(language, mail.subject(context.applicationName), [...lines], {
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
  return renderMail(language, mail.subject(context.applicationName), [...mail.lines(context)], {
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
  return renderMail(language, mail.subject(context.applicationName), [...lines], {
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
  return renderMail(language, mail.subject(context.applicationName), [...mail.lines(context)], {
    label: copy.action,
    url: context.link,
  });
}

/** What the operator is told of a subscription request (the workspace's, not the operator's, facts). */
export interface SubscriptionRequestNotice {
  subscriptionId: string;
  workspaceName: string;
  workspaceId: string;
  /** The application's name in each language. */
  applicationName: Record<MailLanguage, string>;
  clientId: string;
  plan: SubscriptionPlan;
  activeLocations: number;
  amount: number;
  currency: string;
}

const requestNoticeCopy = {
  en: {
    subject: (workspace: string, app: string) => `Dukkan subscription request: ${workspace}, ${app}`,
    lines: (r: SubscriptionRequestNotice, locations: string, amount: string) => [
      'A workspace asks to subscribe to an application:',
      `Workspace: ${r.workspaceName} (${r.workspaceId})`,
      `Application: ${r.applicationName.en} (${r.clientId})`,
      `Plan: ${planNames.en[r.plan]}`,
      `Active locations: ${locations}`,
      `First invoice at today's prices: ${amount}`,
      `Subscription: ${r.subscriptionId}`,
      `Approve it with \`npm run dukkan -- approve-subscription ${r.subscriptionId}\`, or reject it with \`npm run dukkan -- reject-subscription ${r.subscriptionId}\`.`,
    ],
  },
  ar: {
    subject: (workspace: string, app: string) => `طلب اشتراك في دكّان: ${workspace}، ${app}`,
    lines: (r: SubscriptionRequestNotice, locations: string, amount: string) => [
      'تطلب مساحة عمل الاشتراك في تطبيق:',
      `مساحة العمل: ${r.workspaceName} (${r.workspaceId})`,
      `التطبيق: ${r.applicationName.ar} (${r.clientId})`,
      `الخطة: ${planNames.ar[r.plan]}`,
      `الفروع النشطة: ${locations}`,
      `الفاتورة الأولى بأسعار اليوم: ${amount}`,
      `الاشتراك: ${r.subscriptionId}`,
      `وافق عليه بالأمر \`npm run dukkan -- approve-subscription ${r.subscriptionId}\`، أو ارفضه بالأمر \`npm run dukkan -- reject-subscription ${r.subscriptionId}\`.`,
    ],
  },
} as const;

/**
 * To the operator, in their language like every mail (English unless the operator's address is an
 * account that chose Arabic): a workspace asks to subscribe; what its first invoice would be
 * today, and the commands that decide (ids and commands stay as typed).
 */
export function subscriptionRequestNoticeMail(
  language: MailLanguage,
  request: SubscriptionRequestNotice,
): RenderedMail {
  const mail = requestNoticeCopy[language];
  const lines = mail.lines(
    request,
    numberFormat(language).format(request.activeLocations),
    formatMoney(request.amount, request.currency, language),
  );
  return renderMail(language, mail.subject(request.workspaceName, request.applicationName[language]), [
    ...lines,
  ]);
}
