import { invitationLifetimeDays } from '@dukkan/contract';
import { type MailLanguage, type RenderedMail, renderMail } from '../../platform/mail/render.ts';

const copy = {
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
} as const;

/** An invitation to a workspace, by a member (`inviter`) or by the operator (null). */
export function invitationMail(
  language: MailLanguage,
  invitation: { workspaceName: string; inviterName: string | null; link: string },
): RenderedMail {
  const mail = copy.invitation[language];
  const lines = mail.lines(invitation.workspaceName, invitation.inviterName, invitationLifetimeDays);
  return renderMail(language, mail.subject(invitation.workspaceName), lines, {
    label: mail.action,
    url: invitation.link,
  });
}
