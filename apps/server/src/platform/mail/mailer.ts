import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { privateFileMode, privateFolderMode } from '../storage/private-files.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link, if any: logged in outbox mode so a local user can follow it. */
  link?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  from: string;
  smtpUrl?: string;
  outboxDir: string;
  /** NODE_ENV is production: the outbox then gets a warning at start. */
  production?: boolean;
  log: FastifyBaseLogger;
}

/** SMTP through nodemailer when `SMTP_URL` is set; otherwise `.eml` files in the outbox folder. */
export function createMailer({ from, smtpUrl, outboxDir, production, log }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  if (production) {
    // Each mailed link (a password reset, an invitation) is a live credential, and the outbox
    // writes it to the log and to disk: fine on a developer's machine, not in production.
    log.warn(
      { outboxDir },
      'NODE_ENV is production but SMTP_URL is not set: mail goes to the outbox and its links (live credentials) to the log',
    );
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      // Its mails carry live links (password resets, invitations): the server's account only.
      await mkdir(outboxDir, { recursive: true, mode: privateFolderMode });
      const file = join(outboxDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: privateFileMode });
      // Outbox mode is the local, no-SMTP default: the link is logged so the user can follow it.
      log.info({ to: mail.to, subject: mail.subject, file, link: mail.link }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}

/**
 * Sends a mail after the request's work is committed: a mail failure is logged, not shown, so
 * the answer reflects what was saved (the link can be sent again).
 */
export async function sendAfterCommit(
  mailer: Mailer,
  log: Pick<FastifyBaseLogger, 'error'>,
  mail: OutgoingMail,
): Promise<boolean> {
  try {
    await mailer.send(mail);
    return true;
  } catch (error) {
    log.error({ err: error, to: mail.to }, 'mail could not be sent');
    return false;
  }
}
