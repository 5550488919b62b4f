import { signIn } from '../../fixtures/auth.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * Two refusals a merchant meets in the first hour, each said once and truthfully:
 * - Regression: a save made offline spun with Cancel and Escape locked, and the record was saved
 *   later when the network returned. Now nothing is sent, the form says so and keeps its values,
 *   Cancel works, and nothing arrives afterwards.
 * - Regression: a delete refused because other records use the record showed the names twice
 *   (toast and dialog), after a question that promised the deletion; then the refusal was said
 *   twice (a 'failed' toast beside the dialog) and Delete could be pressed again.
 */
const texts = {
  en: {
    newTax: 'New tax',
    code: 'Code',
    title: 'Title (English)',
    country: 'Country',
    rate: 'Rate (%)',
    create: 'Create',
    delete: 'Delete',
    cancel: 'Cancel',
    keep: (name: string) => `Keep ${name}`,
    discard: 'Discard',
    offline: 'You are offline. Nothing was saved; check your connection and try again.',
    deleteFailed: 'Deleting BRAND failed.',
    deleting: 'Deleting BRAND in progress...',
    question: /If no other records use .+, it will be deleted permanently/,
    usedBy: /^Records still using this one \(1\): /,
  },
  ar: {
    newTax: 'إضافة ضريبة',
    code: 'الرمز',
    title: 'العنوان (بالإنجليزية)',
    country: 'الدولة',
    rate: 'النسبة (%)',
    create: 'إنشاء',
    delete: 'حذف',
    cancel: 'إلغاء',
    keep: (name: string) => `أبقِ على ${name}`,
    discard: 'تجاهل',
    offline: 'أنت غير متصل بالإنترنت. لم يُحفظ شيء؛ تحقق من اتصالك وحاول مرة أخرى.',
    deleteFailed: 'تعذّر حذف العلامة التجارية.',
    deleting: 'جارٍ حذف العلامة التجارية...',
    question: /إذا لم تستخدم سجلاتٌ أخرى .+ فسيُحذف نهائيًا/,
    usedBy: /^سجلات لا تزال تستخدم هذا السجل \(١\): /,
  },
};

/** The demo workspace's API with the page's session. */
async function workspaceApi(page: Page) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const url = (path: string) => `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspaceId}`;
  return {
    post: async (path: string, data: unknown) => {
      const response = await page.request.post(url(path), { headers: { origin: e2eServer.url }, data });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()).data as { id: string };
    },
    get: (path: string) => page.request.get(url(path)),
    total: async (path: string) => {
      const response = await page.request.get(url(path));
      expect(response.ok(), await response.text()).toBe(true);
      return ((await response.json()).meta as { total: number }).total;
    },
  };
}

// Each test signs in, seeds and waits for the list to refresh: slow on a shared 2-core machine.
test.slow();

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`offline: Save sends nothing and says so, the values stay, Cancel closes, nothing arrives later (${language})`, async ({
    page,
    context,
  }) => {
    const code = `OFF-${randomDigits(8)}`;
    await signIn(page);
    const api = await workspaceApi(page);
    const taxWrites: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && new URL(request.url()).pathname.replace(/\/+/g, '/') === '/api/taxes')
        taxWrites.push(request.method());
    });

    await page.goto(`/taxes?lng=${language}`);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await page.getByRole('button', { name: text.newTax }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(text.code, { exact: true }).fill(code);
    await dialog.getByLabel(text.title).fill('Offline VAT');
    await dialog.getByLabel(text.country).selectOption('EG');
    await dialog.getByLabel(text.rate).fill('14');

    await context.setOffline(true);
    await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
    await dialog.getByRole('button', { name: text.create }).click();
    await expect(dialog.getByRole('alert')).toHaveText(text.offline);
    // Said once: the toast only says the operation failed.
    await expect(page.getByText(text.offline)).toHaveCount(1);
    await expect(dialog.getByLabel(text.code, { exact: true })).toHaveValue(code);
    await expect(dialog.getByRole('button', { name: text.create })).toBeEnabled();
    await page.screenshot({ path: `e2e/artifacts/refusal-offline-${language}.png` });

    await dialog.getByRole('button', { name: text.cancel }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: text.discard }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: text.newTax }).first()).toBeFocused();

    // Back online: the list asks again (TanStack resumes paused changes before that), and no tax was sent.
    const listAskedAgain = page.waitForResponse(
      (response) =>
        response.request().method() === 'GET' && new URL(response.url()).pathname.endsWith('/taxes'),
    );
    await context.setOffline(false);
    await listAskedAgain;
    expect(taxWrites).toEqual([]);
    expect(await api.total(`taxes?search=${code}`)).toBe(0);
  });

  test(`a brand used by a location: the refusal names it once, in the question that stays open; the brand stays (${language})`, async ({
    page,
  }) => {
    const code = `INUSE-${randomDigits(8)}`;
    const brandName = { en: `Zamalek Roastery ${code}`, ar: `محمصة الزمالك ${code}` };
    const locationName = { en: `Zamalek branch ${code}`, ar: `فرع الزمالك ${code}` };
    await signIn(page);
    const api = await workspaceApi(page);
    const brand = await api.post('brands', {
      code,
      name: [
        { locale: 'en', value: brandName.en },
        { locale: 'ar', value: brandName.ar },
      ],
      currencies: ['EGP'],
    });
    await api.post('locations', {
      code: `${code}-L`,
      brandId: brand.id,
      name: [
        { locale: 'en', value: locationName.en },
        { locale: 'ar', value: locationName.ar },
      ],
      phones: [{ label: 'Front desk', number: '0227350000' }],
    });

    await page.goto(`/brands?search=${code}&lng=${language}`);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await page.getByRole('button', { name: `${text.delete}: ${brandName[language]}` }).click();
    const question = page.getByRole('alertdialog');
    await expect(question).toContainText(text.question);
    await question.getByRole('button', { name: text.delete, exact: true }).click();

    const refusal = question.getByRole('alert');
    await expect(refusal).toHaveText(text.usedBy);
    await expect(refusal).toContainText(locationName[language]);
    // Once, in the dialog: no toast says it failed (nor stays in progress), nor names the location again.
    await expect(page.getByText(text.deleteFailed)).toHaveCount(0);
    await expect(page.getByText(text.deleting)).toHaveCount(0);
    await expect(page.getByText(locationName[language])).toHaveCount(1);
    await expect(question).toBeVisible();
    // Delete stays disabled while the brand is in use; the focus is on the keep button, the way out.
    await expect(question.getByRole('button', { name: text.delete, exact: true })).toBeDisabled();
    const keep = question.getByRole('button', { name: text.keep(brandName[language]) });
    await expect(keep).toBeFocused();
    await page.screenshot({ path: `e2e/artifacts/refusal-in-use-${language}.png` });

    await keep.click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect((await api.get(`brands/${brand.id}`)).status()).toBe(200);
  });
}
