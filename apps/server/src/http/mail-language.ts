import type { FastifyRequest } from 'fastify';
import type { MailLanguage } from '../platform/mail/templates.ts';

/** The language to mail a visitor in: what the page sent, else the browser's preference. */
export function mailLanguage(request: FastifyRequest, chosen?: MailLanguage): MailLanguage {
  if (chosen) return chosen;
  return request.headers['accept-language']?.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}
