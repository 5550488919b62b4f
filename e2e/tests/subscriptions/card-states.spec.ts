import { signIn } from '../../fixtures/auth.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { expect, type Page, test } from '../../fixtures/test.ts';

/**
 * The dashboard's card in each of its nine states, in Chromium, en and ar. The platform loop
 * (subscriptions.spec.ts) reaches seven on the real server; an expired subscription and a payment
 * due need the subscription clock to pass a period's end, so here the dashboard's answer is given
 * to the page: one card per state, with the actions the lifecycle table allows in it.
 */
const day = 86_400_000;
/** The page's clock is fixed here, so a trial ending 4.5 days later has 5 days left. */
const now = new Date('2027-01-10T10:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * day).toISOString();

type State = {
  key: string;
  card: string;
  status: string | null;
  allowedEvents: string[];
  subscription?: Partial<{ endDate: string; cancelling: boolean; graceEndsAt: string; plan: string }>;
  en: RegExp;
  ar: RegExp;
  /** The action buttons the card shows, in English (they follow `allowedEvents`). */
  actions: string[];
};

const states: State[] = [
  {
    key: 'not',
    card: 'notSubscribed',
    status: null,
    allowedEvents: ['startTrial', 'request'],
    en: /Not subscribed/,
    ar: /غير مشترك/,
    actions: ['Start free trial', 'Subscribe'],
  },
  {
    key: 'trial',
    card: 'freeTrial',
    status: 'freeTrial',
    allowedEvents: ['request', 'cancel'],
    subscription: { endDate: at(4.5) },
    en: /Free trial · 5 days left/,
    ar: /تجربة مجانية · بقيت (5|٥) أيام/,
    actions: ['Subscribe', 'Cancel subscription'],
  },
  {
    key: 'waiting',
    card: 'waitingForActivation',
    status: 'pending',
    allowedEvents: ['changePlan'],
    subscription: { plan: 'monthly' },
    en: /Waiting for activation/,
    ar: /بانتظار التفعيل/,
    actions: ['Change plan'],
  },
  {
    key: 'subscribed',
    card: 'subscribed',
    status: 'approved',
    allowedEvents: ['changePlan', 'cancel'],
    subscription: { plan: 'monthly', endDate: at(20) },
    en: /Subscribed until/,
    ar: /مشترك حتى/,
    actions: ['Change plan', 'Cancel subscription'],
  },
  {
    key: 'cancelling',
    card: 'subscribed',
    status: 'approved',
    allowedEvents: [],
    subscription: { plan: 'monthly', endDate: at(20), cancelling: true },
    en: /Cancelled · ends on/,
    ar: /ملغى · ينتهي في/,
    actions: [],
  },
  {
    key: 'due',
    card: 'subscribed',
    status: 'approved',
    allowedEvents: ['changePlan', 'cancel'],
    subscription: { plan: 'monthly', endDate: at(-1), graceEndsAt: at(4) },
    en: /Payment due/,
    ar: /الدفع مستحق/,
    actions: ['Change plan', 'Cancel subscription'],
  },
  {
    key: 'trialOver',
    card: 'expiredFreeTrial',
    status: 'expiredFreeTrial',
    allowedEvents: ['request'],
    subscription: { endDate: at(-2) },
    en: /Expired free trial/,
    ar: /تجربة مجانية منتهية/,
    actions: ['Subscribe'],
  },
  {
    key: 'lapsed',
    card: 'expiredSubscription',
    status: 'expiredSubscription',
    allowedEvents: ['request', 'renew'],
    subscription: { plan: 'monthly', endDate: at(-10) },
    en: /Expired subscription/,
    ar: /اشتراك منتهٍ/,
    actions: ['Subscribe', 'Renew'],
  },
  {
    key: 'rejected',
    card: 'rejected',
    status: 'rejected',
    allowedEvents: ['request'],
    subscription: { plan: 'monthly' },
    en: /Rejected/,
    ar: /مرفوض/,
    actions: ['Subscribe'],
  },
];

const answer = {
  data: states.map((state, index) => ({
    id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    clientId: `app-${state.key}`,
    name: [
      { locale: 'en', value: `App ${state.key}` },
      { locale: 'ar', value: `تطبيق ${state.key}` },
    ],
    description: [
      { locale: 'en', value: 'An application of the platform.' },
      { locale: 'ar', value: 'تطبيق من تطبيقات المنصة.' },
    ],
    logo: null,
    homeUrl: 'http://localhost:3001/',
    pricing: {
      currency: 'EGP',
      monthlyPricePerLocation: 25_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
      trialDays: 14,
    },
    subscription:
      state.status === null
        ? null
        : {
            id: `10000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
            status: state.status,
            plan: null,
            nextPlan: null,
            startDate: null,
            endDate: null,
            cancelling: false,
            graceEndsAt: null,
            ...state.subscription,
          },
    card: state.card,
    allowedEvents: state.allowedEvents,
    trialUsed: state.key !== 'not',
  })),
  meta: { activeLocations: 2 },
};

async function showStates(page: Page) {
  await page.route(
    // The client joins base and path as the spec says (`/api//applications`).
    (url) => url.pathname.replace(/\/+/g, '/') === '/api/applications',
    (route) => route.fulfill({ json: answer }),
  );
}

test('the dashboard card in each state, with its actions, in en and ar', async ({ page }) => {
  await page.clock.setFixedTime(now);
  await signIn(page);
  await showStates(page);
  for (const language of ['en', 'ar'] as const) {
    await page.goto(`/?lng=${language}`);
    await expect(page.getByRole('article')).toHaveCount(states.length);
    for (const state of states) {
      const name = language === 'en' ? `App ${state.key}` : `تطبيق ${state.key}`;
      const card = page.getByRole('article', { name, exact: true });
      await expect(card, state.key).toContainText(state[language]);
      if (language === 'en') {
        await expect(card.getByRole('button'), state.key).toHaveText(state.actions);
        // Open the app only while the application may be used: a trial, or a subscription.
        const opens = state.card === 'freeTrial' || state.card === 'subscribed';
        await expect(card.getByRole('link', { name: /Open the app/ }), state.key).toHaveCount(opens ? 1 : 0);
      }
    }
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `e2e/artifacts/dashboard-states-${language}.png`, fullPage: true });
  }
});
