import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../src/db/schema/index.ts';
import { recordPayment } from '../src/features/subscriptions/subscriptions.ts';
import { api, errorOf } from './helpers/api.ts';
import { insertApplication } from './helpers/applications.ts';
import { addLocations, approvedSubscription, subscriptionServices } from './helpers/subscriptions.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * An issued invoice's document (`GET /api/payments/:id/document`): one self-contained HTML file in
 * the language asked for (else the reader's), naming the workspace, the invoice's number, its
 * dates in the workspace's time zone, its line and amount, its status and when it was paid; for
 * whoever may view the workspace's payments, and only for the workspace's own invoices.
 */
let t: TestApp;
const issuedAt = new Date('2026-03-10T08:00:00.000Z');
const paidAt = new Date('2026-03-12T21:30:00.000Z');
let shop: { id: string; name: string };
let admin: TestMember;
let invoiceId: string;
let otherInvoiceId: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => issuedAt });
  const services = subscriptionServices(t.db, { send: async () => undefined, close() {} });
  shop = await createWorkspace(t.db, 'Corner Bakery & Co');
  // 21:30 UTC on 12 March is already 13 March in Riyadh.
  await t.db.update(workspaces).set({ timeZone: 'Asia/Riyadh' }).where(eq(workspaces.id, shop.id));
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  await addLocations(t.db, shop.id, 3);
  const application = await insertApplication(t.db, {
    nameEn: 'Kitchen Display',
    nameAr: 'شاشة المطبخ',
    monthlyPricePerLocation: 47_500,
    currency: 'EGP',
  });
  const { invoice } = await approvedSubscription(services, shop.id, application.id, 'quarterly', issuedAt);
  invoiceId = invoice!.id;
  await recordPayment(services, { invoiceId, status: 'successful' }, paidAt);

  const other = await createWorkspace(t.db, 'Other Shop');
  const otherApplication = await insertApplication(t.db);
  const otherApproved = await approvedSubscription(
    services,
    other.id,
    otherApplication.id,
    'monthly',
    issuedAt,
  );
  otherInvoiceId = otherApproved.invoice!.id;
});
afterAll(async () => {
  await t?.close();
});

const documentUrl = (id: string, query = '') => `/api/payments/${id}/document?workspaceId=${shop.id}${query}`;
/** The document's text without its markup, spaces (and no-break spaces) made plain. */
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the document of an issued invoice', () => {
  it('in English: a file naming the workspace, the number, the dates, the line, the total and the payment', async () => {
    const response = await api(t.app, { url: documentUrl(invoiceId, '&lang=en'), cookie: admin.cookie });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="invoice-1-en.html"');
    expect(response.text).toMatch(/^<!DOCTYPE html>\n<html lang="en" dir="ltr">/);
    // Self-contained: nothing is fetched and nothing runs.
    expect(response.text).not.toMatch(/<script|<link|src=|url\(/);
    const text = textOf(response.text);
    expect(text).toContain('Invoice no. 1');
    expect(text).toContain('Billed to Corner Bakery & Co');
    expect(text).toContain('Issued on Tue, Mar 10, 2026');
    expect(text).toContain('Period March 10 – June 10, 2026');
    expect(text).toContain(
      'Kitchen Display, quarterly plan 3 locations × 3 months EGP 475.00 per location per month EGP 4,275.00',
    );
    expect(text).toContain('Plan discount (5%) -EGP 213.75');
    expect(text).toContain('Total EGP 4,061.25');
    expect(text).toContain('Status Paid');
    expect(text).toContain('Paid on Fri, Mar 13, 2026');
    expect(text).not.toMatch(/tax/i);
  });

  it('writes a name holding markup as text: the file runs nothing a name put there', async () => {
    const name = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    await t.db.update(workspaces).set({ name }).where(eq(workspaces.id, shop.id));
    try {
      const response = await api(t.app, { url: documentUrl(invoiceId, '&lang=en'), cookie: admin.cookie });
      expect(response.status, response.text).toBe(200);
      expect(response.text).not.toMatch(/<script|<img/);
      expect(response.text).toContain(
        '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
      );
    } finally {
      await t.db.update(workspaces).set({ name: shop.name }).where(eq(workspaces.id, shop.id));
    }
  });

  it('in Arabic, right to left, with its digits and words', async () => {
    const response = await api(t.app, { url: documentUrl(invoiceId, '&lang=ar'), cookie: admin.cookie });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="invoice-1-ar.html"');
    expect(response.text).toMatch(/^<!DOCTYPE html>\n<html lang="ar" dir="rtl">/);
    const text = textOf(response.text);
    expect(text).toContain('الفاتورة رقم ١');
    expect(text).toContain('صادرة إلى Corner Bakery & Co');
    expect(text).toContain('شاشة المطبخ، الخطة الربع سنوية');
    expect(text).toContain('٣ فروع × ٣ أشهر');
    expect(text).toContain('الإجمالي ‏٤٬٠٦١٫٢٥ ج.م.‏');
    expect(text).toContain('الحالة مدفوعة');
    expect(text).toContain('تاريخ الدفع الجمعة، ١٣ مارس ٢٠٢٦');
  });

  it('in the reader’s language when none is asked for', async () => {
    const response = await api(t.app, {
      url: documentUrl(invoiceId),
      cookie: admin.cookie,
      headers: { 'accept-language': 'ar-EG,ar;q=0.9' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="invoice-1-ar.html"');
  });

  it('refuses a language it does not write', async () => {
    const response = await api(t.app, { url: documentUrl(invoiceId, '&lang=fr'), cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION');
  });
});

describe('who may have it', () => {
  it('not a visitor without a session', async () => {
    const response = await api(t.app, { url: documentUrl(invoiceId) });
    expect(response.status).toBe(401);
  });

  it('not a member who may not view payments', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewSubscriptions', 'viewApplications'] });
    const response = await api(t.app, { url: documentUrl(invoiceId), cookie: member.cookie });
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('FORBIDDEN');
  });

  it('a member who may view payments', async () => {
    const member = await addMember(t.db, shop.id, { tags: ['viewPayments'] });
    const response = await api(t.app, { url: documentUrl(invoiceId), cookie: member.cookie });
    expect(response.status).toBe(200);
  });

  it('another workspace’s invoice is not found', async () => {
    const response = await api(t.app, { url: documentUrl(otherInvoiceId), cookie: admin.cookie });
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });

  it.each([
    ['an unknown id', '0b7c1d0e-2f3a-4b5c-8d9e-0f1a2b3c4d5e'],
    ['a malformed id', 'not-an-id'],
  ])('%s is not found', async (_, id) => {
    const response = await api(t.app, { url: documentUrl(id), cookie: admin.cookie });
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });
});
