import { type MailLanguage, type RenderedMail, renderMail } from '../../platform/mail/render.ts';

const copy = {
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

/**
 * To the requester, whose address nobody has verified: a fixed text, never what the request
 * said (a name or company typed in would reach any address as Dukkan's mail).
 */
export function accessRequestRejectedMail(language: MailLanguage): RenderedMail {
  const mail = copy.accessRequestRejected[language];
  const lines = [...mail.lines];
  return renderMail(language, mail.subject, lines);
}

/** To the requester, whose address nobody has verified: a fixed text (see accessRequestRejectedMail). */
export function accessRequestReceivedMail(language: MailLanguage): RenderedMail {
  const mail = copy.accessRequestReceived[language];
  const lines = [...mail.lines];
  return renderMail(language, mail.subject, lines);
}

/** The request's fields as the Arabic notice names them (the English one keeps the field's own name). */
const arabicFieldNames: Record<string, string> = {
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  phone: 'الهاتف',
  companyName: 'الشركة',
  companyWebsite: 'موقع الشركة',
  businessCategory: 'مجال العمل',
  howDidYouHearAboutUs: 'كيف عرفت بنا',
};

const noticeCopy = {
  en: {
    subject: (company: string) => `Dukkan access request: ${company}`,
    intro: 'A new access request was submitted:',
    field: (field: string, value: string) => `${field}: ${value}`,
    outro: 'Approve or reject it with `npm run dukkan -- requests`.',
  },
  ar: {
    subject: (company: string) => `طلب انضمام إلى دكّان: ${company}`,
    intro: 'وصل طلب انضمام جديد:',
    field: (field: string, value: string) => `${arabicFieldNames[field] ?? field}: ${value}`,
    outro: 'وافق عليه أو ارفضه بالأمر `npm run dukkan -- requests`.',
  },
} as const;

/**
 * To the operator, in their language (`operatorLanguage`: English unless the operator's address
 * is an account that chose Arabic): the details of a new access request.
 */
export function accessRequestNoticeMail(
  language: MailLanguage,
  request: Record<string, string | null | undefined>,
): RenderedMail {
  const copy = noticeCopy[language];
  const lines = [
    copy.intro,
    ...Object.entries(request).map(([field, value]) => copy.field(field, value ?? '-')),
    copy.outro,
  ];
  return renderMail(language, copy.subject(request.companyName ?? ''), lines);
}
