import { type CategoryRecord, categoriesResource, type TaxRecord, taxesResource } from '@dukkan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../test/localized.ts';
import { callsTo, listPage, testUser } from '../test/render.tsx';
import { mergedTexts } from '../test/texts.ts';
import { renderResourceScreen } from './render-resource-screen.tsx';

/**
 * A tax's title and a category's description are localized like names: the list shows each in
 * the interface's language (else the other one), and the form edits one box per language.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const admin = testUser([{ ...shop, grant: 'admin' }]);
const stamps = {
  status: 'active' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const vat: TaxRecord = {
  id: '5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a11',
  code: 'VAT',
  title: bothLanguages('Value added tax', 'ضريبة القيمة المضافة'),
  country: 'EG',
  rate: 14,
  ...stamps,
};
/** Titled in English only: the Arabic interface shows the English title. */
const stamp: TaxRecord = {
  ...vat,
  id: '5a0c4b1e-2222-4a57-9a0e-6f1d1b9c2a12',
  code: 'STAMP',
  title: [{ locale: 'en', value: 'Stamp duty' }],
};
const drinks: CategoryRecord = {
  id: '5a0c4b1e-3333-4a57-9a0e-6f1d1b9c2a13',
  code: 'DRK',
  name: bothLanguages('Drinks', 'مشروبات'),
  description: bothLanguages('Everything served in a cup', 'كل ما يُقدَّم في كوب'),
  parentId: null,
  ...stamps,
};

async function inArabic() {
  if (!i18next.hasResourceBundle('ar', 'translation'))
    i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
  await i18next.changeLanguage('ar');
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

function renderTaxes() {
  return renderResourceScreen(taxesResource, 'Taxes', admin, [
    { path: '/api/taxes', body: listPage([vat, stamp]) },
    { method: 'PATCH', path: `/api/taxes/${vat.id}`, body: { data: vat } },
  ]);
}

describe('a localized tax title', () => {
  it('the Arabic interface shows the Arabic title, and the English one where there is no other', async () => {
    await inArabic();
    renderTaxes();
    const row = await screen.findByRole('row', { name: /ضريبة القيمة المضافة/ });
    expect(row.textContent).not.toContain('Value added tax');
    expect(screen.getByRole('row', { name: /Stamp duty/ })).toBeTruthy();
  });

  it('the English interface shows the English title', async () => {
    renderTaxes();
    const row = await screen.findByRole('row', { name: /Value added tax/ });
    expect(row.textContent).not.toContain('ضريبة القيمة المضافة');
  });

  it('the form edits the title in each language and sends both', async () => {
    await inArabic();
    const person = userEvent.setup();
    const { calls } = renderTaxes();
    const row = await screen.findByRole('row', { name: /ضريبة القيمة المضافة/ });
    await person.click(within(row).getByRole('button', { name: /^تعديل/ }));
    const form = within(await screen.findByRole('dialog'));
    const english = form.getByLabelText('العنوان (بالإنجليزية)') as HTMLInputElement;
    const arabic = form.getByLabelText('العنوان (بالعربية)') as HTMLInputElement;
    expect([english.value, arabic.value]).toEqual(['Value added tax', 'ضريبة القيمة المضافة']);
    // Each box is written in its own language's direction, whatever the interface's.
    expect([english.getAttribute('dir'), arabic.getAttribute('dir')]).toEqual(['ltr', 'rtl']);
    await person.clear(arabic);
    await person.type(arabic, 'ض.ق.م');
    await person.click(form.getByRole('button', { name: 'حفظ' }));
    await waitFor(() => expect(callsTo(calls, `/api/taxes/${vat.id}`, 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, `/api/taxes/${vat.id}`, 'PATCH')[0]?.body).toMatchObject({
      title: bothLanguages('Value added tax', 'ض.ق.م'),
    });
  });
});

describe('a localized category description', () => {
  it('the Arabic interface shows the Arabic description', async () => {
    await inArabic();
    renderResourceScreen(categoriesResource, 'Categories', admin, [
      { path: '/api/categories', body: listPage([drinks]) },
    ]);
    const row = await screen.findByRole('row', { name: /مشروبات/ });
    expect(row.textContent).toContain('كل ما يُقدَّم في كوب');
    expect(row.textContent).not.toContain('Everything served in a cup');
  });
});
