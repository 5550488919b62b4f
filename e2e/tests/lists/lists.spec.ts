import { signIn } from '../../fixtures/auth.ts';
import {
  expectNoHorizontalOverflow,
  expectRowActionsVisible,
  expectWhollyShownAcross,
} from '../../fixtures/layout.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The generic list keeps each record's name, status and Edit/Disable/Delete on screen at every
 * width — a table with its actions pinned at the inline end on a wide screen, a card a record on a
 * phone — and keeps long cells short: a week of seven different days shows two lines and "+5 more".
 * Regression: on /locations at 1280 × 800 the actions sat past the card's edge, and at 390 px
 * every list hid status and actions.
 */
const texts = {
  en: {
    name: 'Heliopolis Korba flagship branch, Baghdad Street corner',
    status: 'Active',
    actions: ['Edit', 'Disable', 'Delete'],
    more: '+5 more',
    less: 'Show less',
    friday: 'Fri Closed',
  },
  ar: {
    name: 'فرع مصر الجديدة الرئيسي في الكوربة، ناصية شارع بغداد',
    status: 'مفعّل',
    actions: ['تعديل', 'تعطيل', 'حذف'],
    more: '+٥ أخرى',
    less: 'عرض أقل',
    friday: 'الجمعة مغلق',
  },
};

const viewports = {
  wide: { width: 1280, height: 800 },
  narrow: { width: 390, height: 844 },
};

const at = (hours: number) => hours * 3600;

/** A location open at a different hour each day (seven lines of hours), with a long name in both languages. */
async function seedLocation(page: Page, code: string) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(`/api/${path}?workspaceId=${workspaceId}`, {
      headers: { origin: e2eServer.url },
      data,
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).data as { id: string };
  };
  const brand = await post('brands', {
    code: `${code}-B`,
    name: [
      { locale: 'en', value: 'Korba Bakery' },
      { locale: 'ar', value: 'مخبز الكوربة' },
    ],
    creationDate: '2015-03-01',
    currencies: ['EGP'],
  });
  await post('locations', {
    code,
    brandId: brand.id,
    name: [
      { locale: 'en', value: texts.en.name },
      { locale: 'ar', value: texts.ar.name },
    ],
    address: '12 Baghdad St, Heliopolis, Cairo',
    workingHours: [
      { day: 'monday', opensAt: at(8), closesAt: at(20) },
      { day: 'tuesday', opensAt: at(9), closesAt: at(20) },
      { day: 'wednesday', opensAt: at(10), closesAt: at(20) },
      { day: 'thursday', opensAt: at(11), closesAt: at(2) },
      { day: 'friday', closed: true },
      { day: 'saturday', opensAt: at(13), closesAt: at(23) },
      { day: 'sunday', opensAt: 0, closesAt: 86_400 },
    ],
    phones: [
      { label: 'Front desk', number: '0224150000' },
      { label: 'Delivery', number: '+201001112233' },
      { label: 'Manager', number: '+201223334455' },
      { label: 'Kitchen', number: '0224150001' },
    ],
  });
}

test('a location with a long name and seven lines of hours keeps its name, status and actions on screen, wide and narrow, in en and ar', async ({
  page,
}) => {
  // A limit, not a wait: on two shared cores the eight views with their axe checks take up to two minutes.
  test.setTimeout(240_000);
  await signIn(page);
  const code = `LONG-${randomDigits(6)}`;
  await seedLocation(page, code);
  for (const language of ['en', 'ar'] as const) {
    const text = texts[language];
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await page.goto(`/locations?lng=${language}&search=${code}`);
      const row = page.locator('main tbody tr').filter({ hasText: code });
      // Two cores shared by several runs: a first page of a fresh server can take a while.
      await expect(row).toHaveCount(1, { timeout: 60_000 });
      const where = `${language}, ${size}`;

      // Seen without scrolling, and not cut off by the card's edge, at either width.
      const shown = [
        ['name', row.getByRole('rowheader')],
        ['status', row.getByText(text.status, { exact: true })],
        ...text.actions.map(
          (action) => [action, row.getByRole('button', { name: `${action}: ${text.name}` })] as const,
        ),
      ] as const;
      await expect.soft(row.getByRole('rowheader'), where).toHaveText(text.name);
      for (const [what, element] of shown) {
        await expect.soft(element, `${what}, ${where}`).toBeInViewport({ ratio: 1 });
        await expectWhollyShownAcross(element, `${what}, ${where}`);
      }
      await expectRowActionsVisible(page);
      await expectNoHorizontalOverflow(page);
      if (size === 'wide') {
        // This table is wider than its frame: the pinned actions cast a shadow over the columns beneath.
        await expect(page.locator('main [data-scrolls]')).toHaveCount(1);
        const shadow = await row
          .locator('td[data-column=actions]')
          .evaluate((cell) => getComputedStyle(cell).boxShadow);
        expect(shadow, where).toMatch(/10px -6px/);
      }

      // Seven days of hours take three lines; "+5 more" unfolds the rest (Friday among them), and folds them again.
      const hours = row.locator('td[data-column=workingHours] ul').first();
      await expect(hours.getByRole('listitem')).toHaveCount(3);
      await expect(hours).not.toContainText(text.friday);
      await hours.getByRole('button', { name: text.more }).click();
      await expect(hours.getByRole('listitem')).toHaveCount(8);
      await expect(hours).toContainText(text.friday);
      await page.screenshot({ path: `e2e/artifacts/lists-long-location-${language}-${size}.png` });
      await hours.getByRole('button', { name: text.less }).click();
      await expect(hours.getByRole('listitem')).toHaveCount(3);

      // Four phones: two and "+2 more".
      await expect(row.locator('td[data-column=phones] li')).toHaveCount(3);
    }
  }
});
