import { requestAccessInputSchema } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accessRequests, users } from '../../db/schema/index.ts';
import { parseInput } from '../../errors.ts';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';
import { operatorLanguage, recipientLanguage, requestLanguage } from '../../http/mail-language.ts';
import { sendAfterCommit } from '../../platform/mail/mailer.ts';
import { accessRequestNoticeMail, accessRequestReceivedMail } from './access-request-mails.ts';

/**
 * A visitor's request for access: stored pending, acknowledged to the requester and
 * announced to the operator, who approves or rejects it (access-requests.ts).
 */
export function registerAccessRequestRoutes(app: FastifyInstance, context: AppContext) {
  const { db, config, mailer, captcha, rateLimits } = context;

  app.post('/api/auth/request-for-access', { config: { access: access.public } }, async (request) => {
    await rateLimits.requestAccess.perAddress.consume(request.ip);
    const input = parseInput(requestAccessInputSchema, request.body);
    await rateLimits.requestAccess.perAccount.consume(input.email);
    await captcha.verify(input.reCaptchaToken, request.ip);

    // The page's language is kept with the request (the approval's and rejection's mails use it).
    const language = requestLanguage(request, input.language);
    const [account] = await db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.email, input.email))
      .limit(1);
    const [created] = await db
      .insert(accessRequests)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        companyName: input.companyName,
        companyWebsite: input.companyWebsite || null,
        businessCategory: input.businessCategory,
        howDidYouHearAboutUs: input.howDidYouHearAboutUs,
        language,
      })
      .returning({ id: accessRequests.id, createdAt: accessRequests.createdAt });

    await sendAfterCommit(mailer, request.log, {
      to: input.email,
      ...accessRequestReceivedMail(recipientLanguage({ recipient: account?.language, causer: language })),
    });
    await sendAfterCommit(mailer, request.log, {
      to: config.operatorEmail,
      ...accessRequestNoticeMail(await operatorLanguage(db, config.operatorEmail), {
        name: input.name,
        email: input.email,
        phone: input.phone,
        companyName: input.companyName,
        companyWebsite: input.companyWebsite,
        businessCategory: input.businessCategory,
        howDidYouHearAboutUs: input.howDidYouHearAboutUs,
      }),
    });
    return { data: { id: created!.id, status: 'pending', createdAt: created!.createdAt } };
  });
}
