import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordTokens } from '../src/db/schema/index.ts';
import { api, captchaToken, createUser, decodeQuotedPrintable, resetLinkPattern } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP receiver on loopback: what nodemailer delivers over the wire lands in `received`. */
const received: ReceivedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((recipient) => recipient.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});

let smtpPort: number;
let t: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    mailer: 'real',
    env: { MAIL_FROM: 'Dukkan Test <no-reply@shop.example>', OPERATOR_EMAIL: 'ops@shop.example' },
    configure: (config) => {
      config.smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
    },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
beforeEach(() => {
  received.length = 0;
});

describe('SMTP driver (SMTP_URL set)', () => {
  it('delivers the reset mail with a working link to a real SMTP receiver', async () => {
    const user = await createUser(t.db, { name: 'Hana' });
    const response = await api(t.app, {
      url: '/api/auth/forgot-password',
      body: { email: user.email, reCaptchaToken: await captchaToken(t.app) },
    });
    expect(response.status, response.text).toBe(200);
    expect(t.mails).toEqual([]);

    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.from).toBe('no-reply@shop.example');
    expect(mail.raw).toMatch(/^Subject: Reset your Dukkan password$/m);
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/m);
    const body = decodeQuotedPrintable(mail.raw);
    expect(body).toContain('Hello Hana');
    const token = resetLinkPattern.exec(body)?.[1];
    expect(token).toBeDefined();
    expect(body).toContain(`${t.config.publicUrl}/reset-password?token=${token}`);

    const reset = await api(t.app, {
      url: '/api/auth/reset-password',
      body: { token, password: 'Via#Smtp2025' },
    });
    expect(reset.status).toBe(200);
    const loggedIn = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: 'Via#Smtp2025' },
    });
    expect(loggedIn.status).toBe(200);
  });

  it('delivers the access-request confirmation and the operator notice', async () => {
    const response = await api(t.app, {
      url: '/api/auth/request-for-access',
      body: {
        name: 'Karim',
        email: 'karim@shop.example',
        phone: '0100 123 4567',
        companyName: 'Karim Tech',
        businessCategory: 'technology',
        howDidYouHearAboutUs: 'friend',
        reCaptchaToken: await captchaToken(t.app),
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(received.map((mail) => mail.to[0]).sort()).toEqual(['karim@shop.example', 'ops@shop.example']);
    const notice = decodeQuotedPrintable(received.find((mail) => mail.to[0] === 'ops@shop.example')!.raw);
    expect(notice).toContain('karim@shop.example');
    expect(notice).toContain('Karim Tech');
  });

  it('an unreachable SMTP server does not fail the request: the token is stored and the error logged', async () => {
    const unreachable = await createTestApp({
      database: t.database,
      mailer: 'real',
      configure: (config) => {
        config.smtpUrl = 'smtp://127.0.0.1:1';
      },
    });
    try {
      const user = await createUser(t.db);
      const response = await api(unreachable.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: await captchaToken(unreachable.app) },
      });
      expect(response.status).toBe(200);
      expect(await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toHaveLength(
        1,
      );
    } finally {
      await unreachable.close();
    }
  });
});

describe('outbox driver (no SMTP_URL)', () => {
  it('writes the reset mail as an .eml file in DATA_DIR/outbox, with the link, for the server account only', async () => {
    const outbox = await createTestApp({ database: t.database, mailer: 'real' });
    try {
      expect(outbox.config.smtpUrl).toBeUndefined();
      expect(existsSync(outbox.config.outboxDir)).toBe(false);
      const user = await createUser(t.db, { name: 'Nour' });
      const response = await api(outbox.app, {
        url: '/api/auth/forgot-password',
        body: { email: user.email, reCaptchaToken: await captchaToken(outbox.app) },
      });
      expect(response.status).toBe(200);

      const files = readdirSync(outbox.config.outboxDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      // Its link is a live credential: folder 0700 and file 0600 whatever the process umask.
      if (process.platform !== 'win32') {
        expect(statSync(outbox.config.outboxDir).mode & 0o777).toBe(0o700);
        expect(statSync(join(outbox.config.outboxDir, files[0]!)).mode & 0o777).toBe(0o600);
      }
      const raw = readFileSync(join(outbox.config.outboxDir, files[0]!), 'utf8');
      expect(raw).toMatch(new RegExp(`^To: ${user.email.replace(/[.]/g, '\\.')}$`, 'm'));
      expect(raw).toMatch(/^Subject: Reset your Dukkan password$/m);
      const body = decodeQuotedPrintable(raw);
      expect(body).toContain('Hello Nour');
      const token = resetLinkPattern.exec(body)?.[1];
      expect(body).toContain(`${outbox.config.publicUrl}/reset-password?token=${token}`);
      const reset = await api(outbox.app, {
        url: '/api/auth/reset-password',
        body: { token, password: 'Via#Outbox25' },
      });
      expect(reset.status).toBe(200);
      expect(received).toEqual([]);
    } finally {
      await outbox.close();
    }
  });
});
