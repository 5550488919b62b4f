import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { findMailLink } from '../../fixtures/outbox.ts';
import { applicationCard, newWorkspaceOwner, type Owner } from '../../fixtures/platform.ts';
import { randomDigits } from '../../fixtures/random-digits.ts';
import { e2eServer } from '../../fixtures/server.ts';
import { shotVariants, shotViewports } from '../../fixtures/shots.ts';
import { automaticChecksMade, expect, expectAccessible, type Page, test } from '../../fixtures/test.ts';

/*
 * A merchant's first day: a new workspace's dashboard lists the first steps (brand, location,
 * product, invite, application), each a link to its page, ticked as it is done, and gone once all
 * are; hidden by one member, it is hidden for every member of that workspace and no other.
 */

const texts = {
  en: {
    title: 'Get started',
    progress: (done: number) => `${done} of 5 done`,
    done: 'Done',
    hide: 'Hide for everyone',
    hidden: /Get started is hidden for everyone in /,
    undo: 'Show it again',
    dashboard: 'Dashboard',
    needsBrand: 'A location belongs to a brand: add a brand first.',
    startTrial: 'Start free trial',
    accept: 'Accept Invitation',
    switchWorkspace: /switch workspace/i,
    steps: {
      brand: { link: 'Add a brand', page: 'Brands' },
      location: { link: 'Add a location', page: 'Locations' },
      product: { link: 'Add a product', page: 'Add product' },
      invite: { link: 'Invite a member', page: 'Users' },
      application: { link: 'Try an application' },
    },
  },
  ar: {
    title: 'ابدأ من هنا',
    progress: (done: number) => `تمّ ${done.toLocaleString('ar-EG')} من ٥`,
    done: 'تمّت',
    hide: 'إخفاء عن الجميع',
    hidden: /أُخفيت قائمة «ابدأ من هنا» عن جميع أعضاء /,
    undo: 'إظهارها مجددًا',
    dashboard: 'لوحة التحكم',
    needsBrand: 'يتبع كل فرع علامة تجارية: أضف علامة تجارية أولًا.',
    startTrial: 'ابدأ التجربة المجانية',
    accept: 'قبول الدعوة',
    switchWorkspace: /تبديل مساحة العمل/,
    steps: {
      brand: { link: 'أضف علامة تجارية', page: 'العلامات التجارية' },
      location: { link: 'أضف فرعًا', page: 'الفروع' },
      product: { link: 'أضف منتجًا', page: 'إضافة منتج' },
      invite: { link: 'ادعُ عضوًا', page: 'المستخدمون' },
      application: { link: 'جرّب تطبيقًا' },
    },
  },
};

/** The selected workspace's API, called with the page's session (the steps' records are made here). */
async function workspaceApi(page: Page) {
  const user = await (await page.request.get('/api/auth/user')).json();
  const workspaceId: string = user.data.adminWorkspaces[0].id;
  const send = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> => {
    const response = await page.request.fetch(
      `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspaceId}`,
      { method, data, headers: { origin: e2eServer.url } },
    );
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()).data as T;
  };
  return { workspaceId, send };
}

const list = (page: Page, language: 'en' | 'ar') => page.getByRole('region', { name: texts[language].title });
const stepItem = (page: Page, language: 'en' | 'ar', title: string) =>
  list(page, language)
    .getByRole('listitem')
    .filter({ has: page.getByText(title, { exact: true }) });

for (const language of ['en', 'ar'] as const) {
  const text = texts[language];

  test(`Get started ticks each step as it is done and is gone when all are (${language})`, async ({
    browser,
  }) => {
    // A limit, not a wait: a new account, then five steps, each a page and the dashboard again.
    test.slow(); // an operator command and several sign-ins: three times the usual time
    const owner = await newWorkspaceOwner(browser, language);
    const { page } = owner;
    const api = await workspaceApi(page);

    await page.goto(`/?lng=${language}`);
    const getStarted = list(page, language);
    await expect(getStarted).toContainText(text.progress(0));
    // A location needs a brand: no link yet, and the reason.
    const location = stepItem(page, language, text.steps.location.link);
    await expect(location).toContainText(text.needsBrand);
    await expect(location.getByRole('link')).toHaveCount(0);
    await shoot(page, language, 'get-started-new');

    /** Follows the step's link to its page, makes its record, and comes back by the menu. */
    const take = async (step: 'brand' | 'location' | 'product' | 'invite', make: () => Promise<unknown>) => {
      await getStarted.getByRole('link', { name: text.steps[step].link }).click();
      await expect(page.getByRole('heading', { level: 1, name: text.steps[step].page })).toBeVisible();
      await make();
      await page.getByRole('navigation').first().getByRole('link', { name: text.dashboard }).click();
      await expect(stepItem(page, language, text.steps[step].link)).toContainText(text.done);
      await expect(stepItem(page, language, text.steps[step].link).getByRole('link')).toHaveCount(0);
    };

    let brand = '';
    await take('brand', async () => {
      const created = await api.send<{ id: string }>('POST', 'brands', {
        name: [{ locale: 'ar', value: 'مخبز الركن' }],
        currencies: ['EGP'],
      });
      brand = created.id;
    });
    await expect(getStarted).toContainText(text.progress(1));
    await expect(location.getByRole('link', { name: text.steps.location.link })).toBeVisible();
    await expect(location).not.toContainText(text.needsBrand);

    await take('location', () =>
      api.send('POST', 'locations', {
        name: [{ locale: 'en', value: 'Corner' }],
        brandId: brand,
        phones: [{ label: 'Front', number: '0227350000' }],
      }),
    );
    await take('product', async () => {
      const units = await api.send<{ id: string; code: string }[]>('GET', 'measurement-units?search=PC');
      await api.send('POST', 'products', {
        name: [{ locale: 'en', value: 'Espresso' }],
        measurementUnitId: units.find((unit) => unit.code === 'PC')!.id,
      });
    });
    await expect(getStarted).toContainText(text.progress(3));
    await shoot(page, language, 'get-started-ticked');
    await take('invite', async () => {
      const [role] = await api.send<{ id: string }[]>('GET', 'authority-roles');
      await api.send('POST', 'workspaces/users/invite', {
        email: `staff.${language}.${randomDigits(9)}@shop.test`,
        roleId: role!.id,
      });
    });
    await expect(getStarted).toContainText(text.progress(4));

    // The last step leads to the applications below, on the same page.
    await getStarted.getByRole('link', { name: text.steps.application.link }).click();
    await expect(page.locator('#applications')).toBeFocused();
    await applicationCard(page).getByRole('button', { name: text.startTrial }).click();
    // Every step done: the list is gone.
    await expect(getStarted).toHaveCount(0);
    await page.reload();
    await expect(applicationCard(page)).toBeVisible();
    await expect(getStarted).toHaveCount(0);
    await owner.close();
  });

  test(`hiding Get started hides it for every member of the workspace, not another workspace (${language})`, async ({
    browser,
  }) => {
    test.slow(); // an operator command and several sign-ins: three times the usual time
    const first = await newWorkspaceOwner(browser, language);
    const second = await newWorkspaceOwner(browser, language);
    await joinWorkspace(first, second, language);

    // The second owner, now a member of the first workspace too, sees its list there.
    await switchWorkspace(second.page, first.workspace, language);
    await second.page.goto(`/?lng=${language}`);
    await expect(list(second.page, language)).toBeVisible();

    // The first owner hides it: asked nothing, told so, offered to show it again.
    await first.page.goto(`/?lng=${language}`);
    await list(first.page, language).getByRole('button', { name: text.hide }).click();
    await expect(first.page.getByText(text.hidden)).toBeVisible();
    await expect(first.page.getByRole('button', { name: text.undo })).toBeFocused();
    await expect(list(first.page, language)).toHaveCount(0);
    await shoot(first.page, language, 'get-started-hidden');
    await first.page.reload();
    await expect(applicationCard(first.page)).toBeVisible();
    await expect(list(first.page, language)).toHaveCount(0);
    await expect(first.page.getByText(text.hidden)).toHaveCount(0);

    // Hidden for the other member of that workspace...
    await second.page.reload();
    await expect(applicationCard(second.page)).toBeVisible();
    await expect(list(second.page, language)).toHaveCount(0);
    // ...and still there in their own workspace.
    await switchWorkspace(second.page, second.workspace, language);
    await expect(list(second.page, language)).toBeVisible();
    await expect(list(second.page, language)).toContainText(text.progress(0));
    await first.close();
    await second.close();
  });
}

/** `member` accepts an invitation of `owner`'s workspace, mailed to their existing account. */
async function joinWorkspace(owner: Owner, member: Owner, language: 'en' | 'ar') {
  const api = await workspaceApi(owner.page);
  const [role] = await api.send<{ id: string }[]>('GET', 'authority-roles');
  await api.send('POST', 'workspaces/users/invite', { email: member.email, roleId: role!.id });
  const link = await findMailLink(member.email, /http:\/\/localhost:\d+\/accept-invite\?token=[\w-]+/);
  await member.page.goto(`${link.replace(/^http:\/\/localhost:\d+/, '')}&lng=${language}`);
  await member.page.getByRole('button', { name: texts[language].accept }).click();
  await expect(member.page.getByText(owner.workspace).first()).toBeVisible();
  await member.page.goto(`/?lng=${language}`);
}

async function switchWorkspace(page: Page, name: string, language: 'en' | 'ar') {
  await page.getByRole('button', { name: texts[language].switchWorkspace }).click();
  await page.getByRole('menuitemradio', { name }).click();
  await expect(page.getByRole('button', { name: texts[language].switchWorkspace })).toContainText(name);
}

/**
 * The dashboard as it is now, in the language's theme and width pairs (`shotVariants`), each
 * checked by axe (dark mode's contrast too). The theme is switched as the app's toggle does, on
 * `<html>`, so what only this visit shows (the line after hiding) stays.
 */
async function shoot(page: Page, language: 'en' | 'ar', name: string) {
  const viewport = page.viewportSize();
  const applyTheme = (theme: 'light' | 'dark') =>
    page.evaluate((chosen) => {
      localStorage.setItem('theme', chosen);
      document.documentElement.classList.toggle('dark', chosen === 'dark');
    }, theme);
  for (const [theme, size] of shotVariants(language)) {
    await applyTheme(theme);
    await page.setViewportSize(shotViewports[size]);
    await expect(applicationCard(page)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    // After the automatic checks asked for so far: axe runs one check at a time in a page.
    await automaticChecksMade(page);
    await expectAccessible(page, `${name} ${language} ${theme} ${size}`);
    await page.screenshot({ path: `e2e/artifacts/${name}-${size}-${language}-${theme}.png`, fullPage: true });
  }
  await applyTheme('light');
  if (viewport) await page.setViewportSize(viewport);
}
