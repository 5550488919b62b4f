import type { IssuedPaymentStatus, PaymentRecord } from '../resources/subscriptions.ts';
import { dateTimeFormat, formatDate, numberFormat } from './format.ts';
import { pickLocalized } from './localized-text.ts';
import { formatMoney } from './money.ts';
import { type PlanLength, planMonths } from './subscription-price.ts';

/*
 * An issued invoice as a document to read, print or keep: what it says, in one language, laid out
 * by the web app's page (`/payments/:id/document`) and by the server's self-contained HTML file
 * (`GET /api/payments/:id/document`) alike, so both say the same thing in the same words.
 */

export const invoiceDocumentLanguages = ['en', 'ar'] as const;
export type InvoiceDocumentLanguage = (typeof invoiceDocumentLanguages)[number];

/** The document's language for a requested one: Arabic for `ar…`, else English. */
export function invoiceDocumentLanguage(language: string | undefined): InvoiceDocumentLanguage {
  return language?.startsWith('ar') ? 'ar' : 'en';
}

interface DocumentTexts {
  title: (number: string) => string;
  billedTo: string;
  number: string;
  issuedOn: string;
  period: string;
  status: string;
  paidOn: string;
  statuses: Record<IssuedPaymentStatus, string>;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  line: (application: string, plan: string) => string;
  plans: Record<PlanLength, string>;
  quantityOf: (locations: string, months: string, locationCount: number, monthCount: number) => string;
  perLocationMonth: (price: string) => string;
  discount: (percent: string) => string;
  total: string;
  issuer: string;
  footer: string;
}

const texts: Record<InvoiceDocumentLanguage, DocumentTexts> = {
  en: {
    title: (number) => `Invoice no. ${number}`,
    billedTo: 'Billed to',
    number: 'Invoice no.',
    issuedOn: 'Issued on',
    period: 'Period',
    status: 'Status',
    paidOn: 'Paid on',
    statuses: { successful: 'Paid', failed: 'Payment failed', pending: 'Waiting for payment' },
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    amount: 'Amount',
    line: (application, plan) => `${application}, ${plan} plan`,
    plans: { monthly: 'monthly', quarterly: 'quarterly', semiannually: 'semi-annual', annually: 'annual' },
    quantityOf: (locations, months, locationCount, monthCount) =>
      `${locations} ${locationCount === 1 ? 'location' : 'locations'} × ${months} ${monthCount === 1 ? 'month' : 'months'}`,
    perLocationMonth: (price) => `${price} per location per month`,
    discount: (percent) => `Plan discount (${percent})`,
    total: 'Total',
    issuer: 'Dukkan',
    footer: 'Issued by the Dukkan platform. Amounts are in the invoice’s currency.',
  },
  ar: {
    title: (number) => `الفاتورة رقم ${number}`,
    billedTo: 'صادرة إلى',
    number: 'رقم الفاتورة',
    issuedOn: 'تاريخ الإصدار',
    period: 'الفترة',
    status: 'الحالة',
    paidOn: 'تاريخ الدفع',
    statuses: { successful: 'مدفوعة', failed: 'فشل الدفع', pending: 'بانتظار الدفع' },
    description: 'الوصف',
    quantity: 'الكمية',
    unitPrice: 'سعر الوحدة',
    amount: 'المبلغ',
    line: (application, plan) => `${application}، الخطة ${plan}`,
    plans: { monthly: 'الشهرية', quarterly: 'الربع سنوية', semiannually: 'النصف سنوية', annually: 'السنوية' },
    quantityOf: (locations, months, locationCount, monthCount) =>
      `${locations} ${locationCount === 1 ? 'فرع' : locationCount === 2 ? 'فرعان' : locationCount <= 10 ? 'فروع' : 'فرعًا'} × ${months} ${monthCount === 1 ? 'شهر' : monthCount <= 10 ? 'أشهر' : 'شهرًا'}`,
    perLocationMonth: (price) => `${price} لكل فرع شهريًا`,
    discount: (percent) => `خصم الخطة (${percent})`,
    total: 'الإجمالي',
    issuer: 'دكّان',
    footer: 'صادرة عن منصة دكّان. المبالغ بعملة الفاتورة.',
  },
};

/** A labelled fact of the document's head: its number, dates, status. */
export interface InvoiceDocumentFact {
  key: 'number' | 'issuedOn' | 'period' | 'status' | 'paidOn';
  label: string;
  value: string;
}

export interface InvoiceDocumentLine {
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
}

export interface InvoiceDocument {
  language: InvoiceDocumentLanguage;
  dir: 'ltr' | 'rtl';
  /** "Invoice no. 12": the document's title and heading. */
  title: string;
  /** The platform that issues it. */
  issuer: string;
  billedTo: { label: string; name: string };
  facts: InvoiceDocumentFact[];
  headers: { description: string; quantity: string; unitPrice: string; amount: string };
  lines: InvoiceDocumentLine[];
  total: { label: string; value: string };
  footer: string;
}

export interface InvoiceDocumentInput {
  invoice: PaymentRecord;
  workspaceName: string;
  /** The workspace's IANA time zone: the invoice's dates are days of its calendar (decision 0024). */
  timeZone: string;
  language: string | undefined;
}

/**
 * What an invoice's document says in `language`: the workspace it is billed to, its number (as the
 * app writes it, without grouping), when it was issued and the period it covers (in the
 * workspace's time zone), its line — the application, the plan, the locations and months it is
 * priced for, the plan's discount — its total as the app formats money, its status and, once
 * paid, when (an invoice is never changed after its payment: its last change is the payment).
 * Invoices carry no taxes (their amount is the plan's price), so no tax line is written.
 */
export function invoiceDocument({
  invoice,
  workspaceName,
  timeZone,
  language,
}: InvoiceDocumentInput): InvoiceDocument {
  const lang = invoiceDocumentLanguage(language);
  const text = texts[lang];
  const { details, currency } = invoice;
  const money = (minor: number) => formatMoney(minor, currency, lang);
  const count = (n: number) => numberFormat(lang).format(n);
  const number = numberFormat(lang, { useGrouping: false }).format(invoice.number);
  const day = (value: string) => formatDate(value, lang, timeZone);
  const period = dateTimeFormat(lang, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).formatRange(new Date(details.periodStart), new Date(details.periodEnd));
  const months = planMonths[details.plan];
  const undiscounted = details.monthlyPricePerLocation * details.locations * months;
  const lines: InvoiceDocumentLine[] = [
    {
      description: text.line(pickLocalized(details.application, lang), text.plans[details.plan]),
      quantity: text.quantityOf(count(details.locations), count(months), details.locations, months),
      unitPrice: text.perLocationMonth(money(details.monthlyPricePerLocation)),
      amount: money(undiscounted),
    },
  ];
  if (details.discountBasisPoints > 0) {
    const percent = numberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(
      details.discountBasisPoints / 10_000,
    );
    lines.push({
      description: text.discount(percent),
      quantity: '',
      unitPrice: '',
      amount: money(invoice.amount - undiscounted),
    });
  }
  const facts: InvoiceDocumentFact[] = [
    { key: 'number', label: text.number, value: number },
    { key: 'issuedOn', label: text.issuedOn, value: day(invoice.issuedAt) },
    { key: 'period', label: text.period, value: period },
    { key: 'status', label: text.status, value: text.statuses[invoice.status] },
  ];
  if (invoice.status === 'successful')
    facts.push({ key: 'paidOn', label: text.paidOn, value: day(invoice.updatedAt) });
  return {
    language: lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title: text.title(number),
    issuer: text.issuer,
    billedTo: { label: text.billedTo, name: workspaceName },
    facts,
    headers: {
      description: text.description,
      quantity: text.quantity,
      unitPrice: text.unitPrice,
      amount: text.amount,
    },
    lines,
    total: { label: text.total, value: money(invoice.amount) },
    footer: text.footer,
  };
}
