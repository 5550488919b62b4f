import { type MailLanguage, type RenderedMail, renderMail } from '../../platform/mail/render.ts';

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
} as const;

/** The link to choose a new password; it works for `passwordResetLifetimeMinutes` (the text says one hour). */
export function passwordResetMail(language: MailLanguage, name: string, link: string): RenderedMail {
  const mail = copy.passwordReset[language];
  const lines = mail.lines(name);
  return renderMail(language, mail.subject, lines, { label: mail.action, url: link });
}
