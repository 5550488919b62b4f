import { describe, expect, it } from 'vitest';
import type { PaymentRecord } from '../resources/subscriptions.ts';
import { invoiceDocument } from './invoice-document.ts';

/** What an invoice's document says: its facts and line in each language, and what it leaves out. */
const invoice: PaymentRecord = {
  id: '7d0c4b1e-1111-4a57-9a0e-000000000001',
  number: 12345,
  subscriptionId: '5a0c4b1e-1111-4a57-9a0e-000000000001',
  issuedAt: '2027-01-31T22:30:00.000Z',
  details: {
    application: [
      { locale: 'en', value: 'Kiosk' },
      { locale: 'ar', value: 'الكشك' },
    ],
    plan: 'annually',
    periodStart: '2027-01-31T22:30:00.000Z',
    periodEnd: '2028-01-31T22:30:00.000Z',
    locations: 11,
    monthlyPricePerLocation: 1_000,
    discountBasisPoints: 0,
  },
  amount: 132_000,
  currency: 'KWD',
  status: 'pending',
  createdAt: '2027-01-31T22:30:00.000Z',
  updatedAt: '2027-02-02T08:00:00.000Z',
};
const plain = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ');
const facts = (document: ReturnType<typeof invoiceDocument>) =>
  Object.fromEntries(document.facts.map((fact) => [fact.key, plain(fact.value)]));

describe('an invoice’s document', () => {
  it('writes the number ungrouped, the days of the workspace’s zone, and no discount or payment line it has not', () => {
    const document = invoiceDocument({
      invoice,
      workspaceName: 'Shop',
      timeZone: 'Asia/Kuwait',
      language: 'en',
    });
    expect(document.title).toBe('Invoice no. 12345');
    // 22:30 UTC on 31 January is 1 February in Kuwait.
    expect(facts(document)).toEqual({
      number: '12345',
      issuedOn: 'Mon, Feb 01, 2027',
      period: 'February 1, 2027 – February 1, 2028',
      status: 'Waiting for payment',
    });
    expect(document.lines.map((line) => plain(line.quantity))).toEqual(['11 locations × 12 months']);
    // The currency's own three digits.
    expect(plain(document.total.value)).toBe('KWD 132.000');
  });

  it('says when a paid invoice was paid, and counts in Arabic words', () => {
    const paid = { ...invoice, status: 'successful' as const };
    const document = invoiceDocument({
      invoice: paid,
      workspaceName: 'Shop',
      timeZone: 'Asia/Kuwait',
      language: 'ar-EG',
    });
    expect(document.dir).toBe('rtl');
    expect(facts(document).status).toBe('مدفوعة');
    expect(facts(document).paidOn).toBe('الثلاثاء، ٠٢ فبراير ٢٠٢٧');
    expect(document.lines[0]!.description).toBe('الكشك، الخطة السنوية');
    expect(plain(document.lines[0]!.quantity)).toBe('١١ فرعًا × ١٢ شهرًا');
  });
});
