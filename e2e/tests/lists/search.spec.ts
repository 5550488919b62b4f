import { signIn } from '../../fixtures/auth.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, test } from '../../fixtures/test.ts';

/**
 * A list search finds what people type on a phone: a customer stored as `أحمد مصطفى` is found by
 * `احمد مصطفي` (no hamza, ي for ى), and a phone stored in ASCII digits by the same digits typed
 * in Arabic-Indic ones — in the search box, in Arabic and in English.
 */
const texts = {
  en: { search: 'Search Customers', none: 'Nothing matches your search' },
  ar: { search: 'البحث في العملاء', none: 'لا توجد نتائج مطابقة لبحثك' },
};

const arabicIndic = (digits: string) =>
  digits.replace(/[0-9]/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));

test('the customers list finds a name typed without hamza and a phone typed in Arabic-Indic digits', async ({
  page,
}) => {
  await signIn(page);
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  // A number of its own in the name and the phone, so that only this run's customer answers.
  const own = randomDigits(7);
  const code = `SRCH-${own}`;
  const phone = `+2011${own}9`;
  const created = await page.request.post(`/api/customers?workspaceId=${workspaceId}`, {
    headers: { origin: e2eServer.url },
    data: { code, name: `أحمد مصطفى ${own}`, phones: [phone], source: 'phone' },
  });
  expect(created.status(), await created.text()).toBe(201);

  for (const language of ['ar', 'en'] as const) {
    const text = texts[language];
    await page.goto(`/customers?lng=${language}`);
    const search = page.getByRole('searchbox', { name: text.search });
    const rows = page.locator('main tbody tr');

    await search.fill(`احمد مصطفي ${arabicIndic(own)}`);
    await expect(rows).toHaveCount(1, { timeout: 30_000 });
    await expect(rows.first()).toContainText(code);
    await expect(rows.first()).toContainText(`أحمد مصطفى ${own}`);

    await search.fill(arabicIndic(`11${own}9`));
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(code);
    await page.screenshot({ path: `e2e/artifacts/lists-search-${language}.png` });

    // A customer of another name is not found by this one's number.
    await search.fill(`محمد ${arabicIndic(own)}`);
    await expect(page.getByText(text.none)).toBeVisible();
  }
});
