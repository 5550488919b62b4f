import { type MailLanguage, type RenderedMail, renderMail } from '../../platform/mail/render.ts';

/** What happened to the person's second factors, mailed to them afterwards. */
export type FactorChange = 'added' | 'removed' | 'reset';

const copy = {
  added: {
    en: {
      subject: 'A second factor was added to your Dukkan account',
      lines: (name: string, factor: string) => [
        `Hello ${name},`,
        `"${factor}" was added to your Dukkan account as a second factor. From now on, signing in asks for it after your password.`,
        'If it was not you, reset your password at once and ask the platform’s operator to remove the factor.',
      ],
    },
    ar: {
      subject: 'أُضيف عامل تحقق ثانٍ إلى حسابك في دكّان',
      lines: (name: string, factor: string) => [
        `مرحبًا ${name}،`,
        `أُضيف «${factor}» إلى حسابك في دكّان عاملَ تحقق ثانيًا. سيُطلب منك بعد الآن بعد كلمة المرور عند تسجيل الدخول.`,
        'إن لم تكن أنت، فأعد تعيين كلمة مرورك فورًا واطلب من مشغّل المنصّة إزالة هذا العامل.',
      ],
    },
  },
  removed: {
    en: {
      subject: 'A second factor was removed from your Dukkan account',
      lines: (name: string, factor: string) => [
        `Hello ${name},`,
        `"${factor}" was removed from your Dukkan account and can no longer be used to sign in.`,
        'If it was not you, reset your password at once.',
      ],
    },
    ar: {
      subject: 'أُزيل عامل تحقق ثانٍ من حسابك في دكّان',
      lines: (name: string, factor: string) => [
        `مرحبًا ${name}،`,
        `أُزيل «${factor}» من حسابك في دكّان ولم يعد صالحًا لتسجيل الدخول.`,
        'إن لم تكن أنت، فأعد تعيين كلمة مرورك فورًا.',
      ],
    },
  },
  reset: {
    en: {
      subject: 'Your Dukkan second factors were removed',
      lines: (name: string) => [
        `Hello ${name},`,
        'The platform’s operator removed every second factor and recovery code of your Dukkan account, as asked when a factor is lost. You now sign in with your password alone; add a new factor from your profile.',
        'If you did not ask for this, reset your password at once and tell the operator.',
      ],
    },
    ar: {
      subject: 'أُزيلت عوامل التحقق الثانية من حسابك في دكّان',
      lines: (name: string) => [
        `مرحبًا ${name}،`,
        'أزال مشغّل المنصّة كل عوامل التحقق الثانية ورموز الاسترداد من حسابك في دكّان، كما يُطلب عند فقدان أحدها. تسجّل الدخول الآن بكلمة المرور وحدها؛ أضف عاملًا جديدًا من ملفك الشخصي.',
        'إن لم تطلب ذلك، فأعد تعيين كلمة مرورك فورًا وأبلغ المشغّل.',
      ],
    },
  },
} as const;

/** The mail that tells a person a factor (`factor`, its name) was added or removed, or all were reset. */
export function factorChangeMail(
  language: MailLanguage,
  change: FactorChange,
  name: string,
  factor = '',
): RenderedMail {
  const mail = copy[change][language];
  return renderMail(language, mail.subject, mail.lines(name, factor));
}
