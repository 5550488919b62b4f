import type {
  ApplicationCardState,
  DashboardApplication,
  SubscriptionSummary,
  WorkspaceSubscriptionEvent,
} from '@dukkan/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { bothLanguages } from '../../test/localized.ts';
import { validationRefusal } from '../../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ApplicationsPage } from './applications-page.tsx';

/**
 * The dashboard: a card per application in each state the workspace can be in, exactly the
 * actions the lifecycle allows (and only for members who may change subscriptions), the plan
 * dialog's prices from the contract's formula, refusals in the reader's words, in both languages.
 */
const shop = { id: 'w-shop', name: 'Shop' };
const today = new Date('2027-01-10T12:00:00.000Z');

let sequence = 0;
const appId = () => `0b7c5c1e-4c6b-4a57-9a0e-${String(++sequence).padStart(12, '0')}`;

const subscription = (overrides: Partial<SubscriptionSummary>): SubscriptionSummary => ({
  id: `5a0c4b1e-1111-4a57-9a0e-${String(sequence).padStart(12, '0')}`,
  status: 'approved',
  plan: 'quarterly',
  nextPlan: null,
  startDate: '2027-01-01T12:00:00.000Z',
  endDate: '2027-03-31T12:00:00.000Z',
  cancelling: false,
  graceEndsAt: null,
  ...overrides,
});

function application(
  name: string,
  card: ApplicationCardState,
  allowedEvents: WorkspaceSubscriptionEvent[],
  summary: Partial<SubscriptionSummary> | null = null,
): DashboardApplication {
  return {
    id: appId(),
    clientId: name.toLowerCase().replace(/\s/g, '-'),
    name: bothLanguages(name, `تطبيق ${name}`),
    description: [{ locale: 'en', value: `${name} for your shop` }],
    logo: null,
    homeUrl: `https://${name.toLowerCase().replace(/\s/g, '')}.example.com/`,
    pricing: {
      currency: 'EGP',
      monthlyPricePerLocation: 25_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1_000, annually: 2_000 },
      trialDays: 14,
    },
    subscription: summary ? subscription(summary) : null,
    card,
    allowedEvents,
    trialUsed: summary !== null,
    duePayment: null,
  };
}

const notSubscribed = application('Point of Sale', 'notSubscribed', ['startTrial', 'request']);
const inTrial = application('Kitchen Display', 'freeTrial', ['request', 'cancel'], {
  status: 'freeTrial',
  plan: null,
  endDate: '2027-01-15T12:00:00.000Z',
});
const waiting = application('Loyalty', 'waitingForActivation', ['changePlan'], {
  status: 'pending',
  startDate: null,
  endDate: null,
});
const subscribed = application('Inventory', 'subscribed', ['changePlan', 'cancel'], {
  nextPlan: 'annually',
});
const trialOver = application('Reports', 'expiredFreeTrial', ['request'], {
  status: 'expiredFreeTrial',
  plan: null,
});
const lapsed = application('Delivery', 'expiredSubscription', ['request', 'renew'], {
  status: 'expiredSubscription',
});
const refused = application('Payroll', 'rejected', ['request'], {
  status: 'rejected',
  startDate: null,
  endDate: null,
});
const cancelling = application('Booking', 'subscribed', [], { cancelling: true });
const inGrace = application('Accounting', 'subscribed', ['changePlan', 'cancel'], {
  endDate: '2027-01-05T12:00:00.000Z',
  graceEndsAt: '2027-01-19T12:00:00.000Z',
});
const everyCard = [
  notSubscribed,
  inTrial,
  waiting,
  subscribed,
  trialOver,
  lapsed,
  refused,
  cancelling,
  inGrace,
];

const dashboard = (
  applications: DashboardApplication[],
  activeLocations = 3,
  operator: { reviewHours?: number | null; graceDays?: number } = {},
) => ({
  data: applications,
  meta: { activeLocations, ...operator },
});

/** An issued invoice waiting for its payment, by `dueBy` (null: nothing ends if it is not paid). */
const duePayment = (
  app: DashboardApplication,
  number: number,
  amount: number,
  dueBy: string | null,
  // The period it pays for ends a quarter after the grace's period (inGrace's plan).
  periodEnd = '2027-04-05T12:00:00.000Z',
): DashboardApplication['duePayment'] => ({
  invoiceId: `9d0c4b1e-2222-4a57-9a0e-${String(number).padStart(12, '0')}`,
  number,
  subscriptionId: app.subscription!.id,
  application: app.name,
  amount,
  currency: 'EGP',
  issuedAt: '2027-01-05T12:00:00.000Z',
  dueBy,
  periodEnd,
});

function renderDashboard(routes: MockRoute[], grant: 'admin' | string[] = 'admin') {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderSignedIn(<ApplicationsPage />, { user: testUser([{ ...shop, grant }]), path: '/' });
  return mock;
}

const card = (name: string) => screen.getByRole('article', { name });
const findCard = (name: string) => screen.findByRole('article', { name });
/** Intl separates a currency from its amount with a no-break space. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0/g, ' ');
const buttonsOf = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((button) => button.textContent);

const refusal = (reason: string) =>
  validationRefusal([{ path: 'event', message: 'SUBSCRIPTION_EVENT_REFUSED', params: { reason } }], {
    status: 409,
    message: 'Refused',
  });

beforeEach(() => {
  // Only the date: the trial's days left count from it; timers stay real for the page and user-event.
  vi.useFakeTimers({ toFake: ['Date'], now: today });
});

afterEach(async () => {
  // Unmounted first: a page still mounted would fetch again (a language switched back) through the real fetch.
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('the dashboard (Applications)', () => {
  it('says the state of each card: the spec’s four verbatim, the trial’s days left, the period’s end, cancelling and payment due', async () => {
    const { calls } = renderDashboard([{ path: '/api/applications', body: dashboard(everyCard) }]);
    await findCard('Point of Sale');
    expect(callsTo(calls, '/api/applications')[0]?.query.get('workspaceId')).toBe(shop.id);
    const states: [string, string][] = [
      ['Point of Sale', 'Not subscribed'],
      ['Kitchen Display', 'Free trial · 5 days left'],
      ['Loyalty', 'Waiting for activation'],
      ['Inventory', 'Subscribed until Wed, Mar 31, 2027'],
      ['Reports', 'Expired free trial'],
      ['Delivery', 'Expired subscription'],
      ['Payroll', 'Rejected'],
      ['Booking', 'Cancelled · ends on Wed, Mar 31, 2027'],
      ['Accounting', 'Payment due'],
    ];
    for (const [name, state] of states) expect(within(card(name)).getByText(state), name).toBeTruthy();
    expect(
      within(card('Accounting')).getByText('Pay its invoice by Tue, Jan 19, 2027 to keep using it.'),
    ).toBeTruthy();
    expect(within(card('Inventory')).getByText('From the next period: Annually')).toBeTruthy();
    expect(within(card('Point of Sale')).getByText('Point of Sale for your shop')).toBeTruthy();
    expect(plain(within(card('Point of Sale')).getByText(/per location per month/).textContent)).toBe(
      'EGP 250.00 per location per month',
    );
    // No logo: the initials of the name's first two words stand in.
    expect(within(card('Point of Sale')).getByText('PO')).toBeTruthy();
  });

  it('says what happens next: who reviews a request and when, what is due, how to pay and what follows, when a trial ends', async () => {
    const lateTrial = application('Kiosk', 'freeTrial', ['request', 'cancel'], {
      status: 'freeTrial',
      plan: null,
      // 23:00 in UTC is already the next day in Cairo, the workspace's time zone.
      endDate: '2027-01-15T23:00:00.000Z',
    });
    const owing = { ...inGrace, duePayment: duePayment(inGrace, 7, 213_750, '2027-01-19T12:00:00.000Z') };
    const firstInvoice = { ...subscribed, duePayment: duePayment(subscribed, 3, 75_000, null) };
    renderDashboard([
      {
        path: '/api/applications',
        body: dashboard([lateTrial, waiting, owing, firstInvoice], 3, { reviewHours: 48, graceDays: 14 }),
      },
      {
        path: '/api/payments/instructions',
        body: { data: { provider: 'bank-transfer', bankTransfer: null } },
      },
    ]);
    const texts = (name: string) => plain(card(name).textContent);
    await findCard('Kiosk');
    // No bank-transfer instructions set: each invoice says to contact the operator.
    await within(card('Accounting')).findByText(/^To pay, contact the platform's operator/);
    expect(texts('Kiosk')).toContain(
      'Ends on Sat, Jan 16, 2027. Subscribe before then to keep using Kiosk; a free trial cannot be started again.',
    );
    expect(texts('Loyalty')).toContain(
      "The platform's operator reviews your request within 2 days. You will get a mail once it is approved or rejected; the first invoice is issued on approval.",
    );
    expect(texts('Accounting')).toContain('Payment due');
    expect(texts('Accounting')).toContain('Invoice no. 7: EGP 2,137.50, due by Tue, Jan 19, 2027.');
    expect(texts('Accounting')).toContain(
      "To pay, contact the platform's operator quoting invoice no. 7; it shows as Successful once they record your payment.",
    );
    expect(texts('Inventory')).toContain("To pay, contact the platform's operator quoting invoice no. 3;");
    expect(texts('Accounting')).toContain(
      'If it is not paid by Tue, Jan 19, 2027, the subscription ends and your team can no longer open Accounting.',
    );
    expect(texts('Inventory')).toContain('Invoice no. 3: EGP 750.00, waiting for payment.');
    expect(texts('Inventory')).toContain('The subscription stays active meanwhile.');
  });

  it('with the hosted checkout a request’s first invoice is on its card: pay it by card to start it', async () => {
    const payable = { ...waiting, duePayment: duePayment(waiting, 1, 75_000, null) };
    renderDashboard([
      { path: '/api/applications', body: dashboard([payable], 1) },
      { path: '/api/payments/instructions', body: { data: { provider: 'stripe', bankTransfer: null } } },
    ]);
    const loyalty = await findCard('Loyalty');
    await within(loyalty).findByText('Pay invoice no. 1 by card');
    expect(plain(loyalty.textContent)).toContain(
      'Pay its first invoice by card and the subscription starts at once.',
    );
    expect(plain(loyalty.textContent)).not.toContain('the first invoice is issued on approval');
    expect(within(loyalty).getByRole('button', { name: /^Pay EGP\s750\.00 now$/ })).toBeTruthy();
  });

  it('a payment due shows the operator’s bank transfer: the invoice number as the reference and its amount', async () => {
    const owing = { ...inGrace, duePayment: duePayment(inGrace, 7, 213_750, '2027-01-19T12:00:00.000Z') };
    const { calls } = renderDashboard([
      { path: '/api/applications', body: dashboard([owing, notSubscribed], 3) },
      {
        path: '/api/payments/instructions',
        body: {
          data: {
            provider: 'bank-transfer',
            bankTransfer: {
              accountHolder: bothLanguages('Dukkan Platform LLC', 'شركة منصة دكان'),
              bank: bothLanguages('CIB', 'البنك التجاري الدولي'),
              account: '100012345678',
              notes: [],
            },
          },
        },
      },
    ]);
    const accounting = await findCard('Accounting');
    const box = (await within(accounting).findByText('Pay invoice no. 7 by bank transfer')).parentElement!;
    expect([...box.querySelectorAll('dd')].map((value) => plain(value.textContent))).toEqual([
      'Dukkan Platform LLC',
      'CIB',
      '100012345678',
      '7',
      'EGP 2,137.50',
    ]);
    expect(plain(accounting.textContent)).toContain('Invoice no. 7: EGP 2,137.50, due by Tue, Jan 19, 2027.');
    expect(within(accounting).queryByText(/contact the platform's operator/)).toBeNull();
    // A card with nothing due asks for no instructions of its own.
    expect(within(card('Point of Sale')).queryByText(/bank transfer/)).toBeNull();
    expect(callsTo(calls, '/api/payments/instructions')[0]?.query.get('workspaceId')).toBe(shop.id);
  });

  it('says a review delay in hours when it is not whole days, and none when the operator set none', async () => {
    renderDashboard([{ path: '/api/applications', body: dashboard([waiting], 3, { reviewHours: 36 }) }]);
    expect(plain((await findCard('Loyalty')).textContent)).toContain('reviews your request within 36 hours.');
    cleanup();
    renderDashboard([{ path: '/api/applications', body: dashboard([waiting], 3, { reviewHours: null }) }]);
    expect(plain((await findCard('Loyalty')).textContent)).toContain(
      "The platform's operator reviews your request. You will get a mail",
    );
  });

  it('says in the plan dialog when the invoice is issued, and from when a new plan’s price applies', async () => {
    const person = userEvent.setup();
    renderDashboard([{ path: '/api/applications', body: dashboard([notSubscribed, subscribed, inGrace]) }]);
    await person.click(within(await findCard('Point of Sale')).getByRole('button', { name: 'Subscribe' }));
    let dialog = screen.getByRole('dialog', { name: 'Subscribe to Point of Sale' });
    const said = (text: string) => expect(plain(dialog.textContent)).toContain(text);
    said(
      "Its first invoice, EGP 750.00, is issued when the platform's operator approves the request; the first period starts that day.",
    );
    await person.click(within(dialog).getByRole('radio', { name: 'Quarterly' }));
    said('Its first invoice, EGP 2,137.50, is issued when');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await person.click(within(card('Inventory')).getByRole('button', { name: 'Change plan' }));
    dialog = screen.getByRole('dialog', { name: 'Change the plan of Inventory' });
    // The waiting plan (annually) is chosen: its price from the period's end, instead of today's plan's.
    said(
      'The Annually plan applies from Wed, Mar 31, 2027: the invoice issued that day is EGP 7,200.00 instead of EGP 2,137.50.',
    );
    await person.click(within(dialog).getByRole('radio', { name: 'Quarterly' }));
    said('The next invoice, EGP 2,137.50, is issued on Wed, Mar 31, 2027.');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // In grace the next period's invoice is already issued: a new plan applies from the period after.
    await person.click(within(card('Accounting')).getByRole('button', { name: 'Change plan' }));
    dialog = screen.getByRole('dialog', { name: 'Change the plan of Accounting' });
    await person.click(within(dialog).getByRole('radio', { name: 'Monthly' }));
    said('The Monthly plan applies from Mon, Apr 05, 2027: the invoice issued that day is EGP 750.00');
  });

  it('in grace, prices a new plan from the end of the period the awaited invoice pays for, however long', async () => {
    const person = userEvent.setup();
    // An annual plan was waiting when the quarter ended: the invoice issued then pays for a year.
    const longGrace = application('Accounting', 'subscribed', ['changePlan', 'cancel'], {
      endDate: '2027-01-05T12:00:00.000Z',
      graceEndsAt: '2027-01-19T12:00:00.000Z',
      nextPlan: 'annually',
    });
    const owing = {
      ...longGrace,
      duePayment: duePayment(longGrace, 7, 720_000, '2027-01-19T12:00:00.000Z', '2028-01-05T12:00:00.000Z'),
    };
    renderDashboard([{ path: '/api/applications', body: dashboard([owing]) }]);
    await person.click(within(await findCard('Accounting')).getByRole('button', { name: 'Change plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Change the plan of Accounting' });
    await person.click(within(dialog).getByRole('radio', { name: 'Monthly' }));
    expect(plain(dialog.textContent)).toContain(
      'The Monthly plan applies from Wed, Jan 05, 2028: the invoice issued that day is EGP 750.00',
    );
  });

  it('says "1 day left" for a trial ending within the day', async () => {
    const lastDay = application('Kiosk', 'freeTrial', [], {
      status: 'freeTrial',
      plan: null,
      endDate: '2027-01-10T20:00:00.000Z',
    });
    renderDashboard([{ path: '/api/applications', body: dashboard([lastDay]) }]);
    expect(within(await findCard('Kiosk')).getByText('Free trial · 1 day left')).toBeTruthy();
  });

  it('offers exactly the allowed actions, and Open the app in a new tab only while in a trial or subscribed', async () => {
    renderDashboard([{ path: '/api/applications', body: dashboard(everyCard) }]);
    await findCard('Point of Sale');
    const expected: [string, string[]][] = [
      ['Point of Sale', ['Start free trial', 'Subscribe']],
      ['Kitchen Display', ['Subscribe', 'Cancel subscription']],
      ['Loyalty', ['Change plan']],
      ['Inventory', ['Change plan', 'Cancel subscription']],
      ['Reports', ['Subscribe']],
      ['Delivery', ['Subscribe', 'Renew']],
      ['Payroll', ['Subscribe']],
      ['Booking', []],
      ['Accounting', ['Change plan', 'Cancel subscription']],
    ];
    for (const [name, actions] of expected) expect(buttonsOf(card(name)), name).toEqual(actions);

    for (const open of ['Kitchen Display', 'Inventory', 'Booking', 'Accounting']) {
      const link = within(card(open)).getByRole('link', { name: /^Open the app/ });
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
    expect(
      within(card('Inventory'))
        .getByRole('link', { name: /^Open the app/ })
        .getAttribute('href'),
    ).toBe('https://inventory.example.com/');
    for (const closed of ['Point of Sale', 'Loyalty', 'Reports', 'Delivery', 'Payroll'])
      expect(within(card(closed)).queryByRole('link'), closed).toBeNull();
  });

  it('hides every action that changes a subscription from a member without addSubscriptions', async () => {
    renderDashboard([{ path: '/api/applications', body: dashboard(everyCard) }], ['viewApplications']);
    await findCard('Point of Sale');
    for (const entry of everyCard) {
      const name = entry.name[0]?.value ?? '';
      expect(buttonsOf(card(name)), name).toEqual([]);
    }
    expect(within(card('Inventory')).getByRole('link', { name: /^Open the app/ })).toBeTruthy();
  });

  it.each([
    [
      3,
      'for 3 locations',
      [
        ['Monthly', 'EGP 250.00', null, 'EGP 750.00'],
        ['Quarterly', 'EGP 237.50', 'Save 5%', 'EGP 2,137.50'],
        ['Semiannually', 'EGP 225.00', 'Save 10%', 'EGP 4,050.00'],
        ['Annually', 'EGP 200.00', 'Save 20%', 'EGP 7,200.00'],
      ],
    ],
    [
      0,
      'for 1 location',
      [
        ['Monthly', 'EGP 250.00', null, 'EGP 250.00'],
        ['Quarterly', 'EGP 237.50', 'Save 5%', 'EGP 712.50'],
        ['Semiannually', 'EGP 225.00', 'Save 10%', 'EGP 1,350.00'],
        ['Annually', 'EGP 200.00', 'Save 20%', 'EGP 2,400.00'],
      ],
    ],
  ] as const)('prices each plan for %i active locations', async (locations, forLocations, plans) => {
    const person = userEvent.setup();
    renderDashboard([{ path: '/api/applications', body: dashboard([notSubscribed], locations) }]);
    await person.click(within(await findCard('Point of Sale')).getByRole('button', { name: 'Subscribe' }));
    const dialog = screen.getByRole('dialog', { name: 'Subscribe to Point of Sale' });
    for (const [plan, perLocation, saving, total] of plans) {
      const radio = within(dialog).getByRole('radio', { name: plan });
      const text = plain(radio.closest('label')?.textContent);
      expect(text, plan).toContain(`${perLocation} per location per month`);
      expect(text, plan).toContain(`${total} ${forLocations}`);
      if (saving) expect(text, plan).toContain(saving);
      else expect(text, plan).not.toContain('Save');
    }
    expect(Boolean(within(dialog).queryByText(/no active location yet/))).toBe(locations === 0);
  });

  it('subscribes with the plan chosen by keyboard, then shows the refetched cards and gives the focus to the card', async () => {
    const person = userEvent.setup();
    let state: DashboardApplication = notSubscribed;
    const { calls } = renderDashboard([
      { path: '/api/applications', body: () => dashboard([state]) },
      {
        method: 'POST',
        path: '/api/subscriptions/events',
        body: () => {
          state = { ...notSubscribed, card: 'waitingForActivation', allowedEvents: ['changePlan'] };
          return { data: subscription({ status: 'pending', plan: 'quarterly' }) };
        },
      },
    ]);
    await person.click(within(await findCard('Point of Sale')).getByRole('button', { name: 'Subscribe' }));
    const dialog = screen.getByRole('dialog', { name: 'Subscribe to Point of Sale' });
    const monthly = within(dialog).getByRole('radio', { name: 'Monthly' }) as HTMLInputElement;
    expect(monthly.checked).toBe(true);
    monthly.focus();
    await person.keyboard('{ArrowDown}');
    expect((within(dialog).getByRole('radio', { name: 'Quarterly' }) as HTMLInputElement).checked).toBe(true);
    await person.click(within(dialog).getByRole('button', { name: 'Subscribe' }));

    expect(
      await screen.findByText('Subscription to Point of Sale requested: waiting for activation'),
    ).toBeTruthy();
    const [post] = callsTo(calls, '/api/subscriptions/events', 'POST');
    expect(post?.query.get('workspaceId')).toBe(shop.id);
    expect(post?.body).toEqual({ applicationId: notSubscribed.id, event: 'request', plan: 'quarterly' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card('Point of Sale')).getByText('Waiting for activation')).toBeTruthy();
    expect(callsTo(calls, '/api/applications')).toHaveLength(2);
    // Its Subscribe button is gone with the old card: the card's title has the focus.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Point of Sale' })),
    );
  });

  it('changes the plan starting from the one waiting, and gives the focus back to Change plan', async () => {
    const person = userEvent.setup();
    const { calls } = renderDashboard([
      { path: '/api/applications', body: dashboard([subscribed]) },
      {
        method: 'POST',
        path: '/api/subscriptions/events',
        body: { data: subscription({ nextPlan: 'monthly' }) },
      },
    ]);
    const opener = within(await findCard('Inventory')).getByRole('button', { name: 'Change plan' });
    await person.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Change the plan of Inventory' });
    expect((within(dialog).getByRole('radio', { name: 'Annually' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByRole('radio', { name: 'Quarterly' }).closest('label')?.textContent).toContain(
      'Current plan',
    );
    await person.click(within(dialog).getByRole('radio', { name: 'Monthly' }));
    await person.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, '/api/subscriptions/events', 'POST')[0]?.body).toEqual({
      applicationId: subscribed.id,
      event: 'changePlan',
      plan: 'monthly',
    });
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("says why the lifecycle refused, by the refusal's reason, and keeps the dialog open", async () => {
    const person = userEvent.setup();
    renderDashboard([
      { path: '/api/applications', body: dashboard([lapsed]) },
      { method: 'POST', path: '/api/subscriptions/events', ...refusal('alreadySubscribed') },
    ]);
    await person.click(within(await findCard('Delivery')).getByRole('button', { name: 'Renew' }));
    const dialog = screen.getByRole('dialog', { name: 'Renew Delivery' });
    await person.click(within(dialog).getByRole('button', { name: 'Renew' }));
    expect(
      await within(dialog).findByText('The workspace is already subscribed to this application.'),
    ).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('cancels only after confirmation, saying until when it keeps working', async () => {
    const person = userEvent.setup();
    const { calls } = renderDashboard([
      { path: '/api/applications', body: dashboard([subscribed]) },
      {
        method: 'POST',
        path: '/api/subscriptions/events',
        body: { data: subscription({ cancelling: true }) },
      },
    ]);
    await person.click(
      within(await findCard('Inventory')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'End the subscription to Inventory?' });
    expect(confirm.textContent).toContain('It keeps working until Wed, Mar 31, 2027');
    expect(callsTo(calls, '/api/subscriptions/events', 'POST')).toHaveLength(0);
    await person.click(within(confirm).getByRole('button', { name: 'End subscription' }));
    expect(await screen.findByText('Subscription to Inventory cancelled')).toBeTruthy();
    expect(callsTo(calls, '/api/subscriptions/events', 'POST')[0]?.body).toEqual({
      applicationId: subscribed.id,
      event: 'cancel',
    });
  });

  it.each([
    ['a subscription', subscribed, 'Inventory', 'Keep subscription', 'End subscription'],
    ['a free trial', inTrial, 'Kitchen Display', 'Keep trial', 'End trial now — it cannot be restarted'],
  ])(
    'names what the buttons of ending %s do, the keeping one focused and harmless',
    async (_label, app, name, keep, end) => {
      const person = userEvent.setup();
      const { calls } = renderDashboard([{ path: '/api/applications', body: dashboard([app]) }]);
      await person.click(within(await findCard(name)).getByRole('button', { name: 'Cancel subscription' }));
      const confirm = await screen.findByRole('alertdialog');
      const buttons = within(confirm)
        .getAllByRole('button')
        .map((button) => button.textContent);
      expect(buttons).toEqual(expect.arrayContaining([keep, end]));
      expect(buttons).not.toContain('Cancel');
      await waitFor(() => expect(document.activeElement?.textContent).toBe(keep));
      await person.click(within(confirm).getByRole('button', { name: keep }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(callsTo(calls, '/api/subscriptions/events', 'POST')).toHaveLength(0);
    },
  );

  it("shows a refused cancellation inside the confirmation, in the refusal's words", async () => {
    const person = userEvent.setup();
    renderDashboard([
      { path: '/api/applications', body: dashboard([subscribed]) },
      { method: 'POST', path: '/api/subscriptions/events', ...refusal('alreadyCancelling') },
    ]);
    await person.click(
      within(await findCard('Inventory')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const confirm = await screen.findByRole('alertdialog');
    await person.click(within(confirm).getByRole('button', { name: 'End subscription' }));
    expect(
      await within(confirm).findByText(
        'The subscription is already cancelled: it ends with its current period.',
      ),
    ).toBeTruthy();
  });

  it('starts a free trial at once, and says so', async () => {
    const person = userEvent.setup();
    const { calls } = renderDashboard([
      { path: '/api/applications', body: dashboard([notSubscribed]) },
      {
        method: 'POST',
        path: '/api/subscriptions/events',
        body: { data: subscription({ status: 'freeTrial', plan: null }) },
      },
    ]);
    await person.click(
      within(await findCard('Point of Sale')).getByRole('button', { name: 'Start free trial' }),
    );
    expect(await screen.findByText('Your free trial of Point of Sale has started')).toBeTruthy();
    expect(callsTo(calls, '/api/subscriptions/events', 'POST')[0]?.body).toEqual({
      applicationId: notSubscribed.id,
      event: 'startTrial',
    });
  });

  it('shows grey cards while loading, then says when there is no application', async () => {
    let answer: (value: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderSignedIn(<ApplicationsPage />, { user: testUser([{ ...shop, grant: 'admin' }]), path: '/' });
    expect(screen.getByText('Loading…').closest('[role="status"]')).toBeTruthy();
    answer(new Response(JSON.stringify(dashboard([])), { status: 200 }));
    expect(await screen.findByText('No applications yet')).toBeTruthy();
  });

  it('offers to try again when the applications could not be loaded', async () => {
    const person = userEvent.setup();
    renderDashboard([
      {
        path: '/api/applications',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'x' } },
      },
    ]);
    expect(await screen.findByText('The applications could not be loaded.')).toBeTruthy();
    const server = mockFetch([{ path: '/api/applications', body: dashboard([notSubscribed]) }]);
    vi.stubGlobal('fetch', server.fetchMock);
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await findCard('Point of Sale')).toBeTruthy();
    expect(callsTo(server.calls, '/api/applications')).toHaveLength(1);
  });
});

describe('the dashboard in Arabic', () => {
  beforeEach(async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
  });

  it('says the states in Arabic, with Arabic plurals and Arabic-Egypt dates', async () => {
    const twoDays = application('Kiosk', 'freeTrial', [], {
      status: 'freeTrial',
      plan: null,
      endDate: '2027-01-12T12:00:00.000Z',
    });
    const elevenDays = application('Tables', 'freeTrial', [], {
      status: 'freeTrial',
      plan: null,
      endDate: '2027-01-21T12:00:00.000Z',
    });
    renderDashboard([
      {
        path: '/api/applications',
        body: dashboard([twoDays, elevenDays, inTrial, waiting, subscribed, refused]),
      },
    ]);
    const arabicCard = (name: string) => screen.getByRole('article', { name: `تطبيق ${name}` });
    await screen.findByRole('article', { name: 'تطبيق Kiosk' });
    expect(within(arabicCard('Kiosk')).getByText('تجربة مجانية · بقي يومان')).toBeTruthy();
    expect(within(arabicCard('Tables')).getByText('تجربة مجانية · بقي ١١ يومًا')).toBeTruthy();
    expect(within(arabicCard('Kitchen Display')).getByText('تجربة مجانية · بقيت ٥ أيام')).toBeTruthy();
    expect(within(arabicCard('Loyalty')).getByText('بانتظار التفعيل')).toBeTruthy();
    expect(within(arabicCard('Payroll')).getByText('مرفوض')).toBeTruthy();
    expect(within(arabicCard('Inventory')).getByText('مشترك حتى الأربعاء، ٣١ مارس ٢٠٢٧')).toBeTruthy();
    expect(within(arabicCard('Inventory')).getByRole('button', { name: 'غيّر الخطة' })).toBeTruthy();
  });

  it.each([
    [subscribed, 'Inventory', 'أبقِ على الاشتراك', 'أنهِ الاشتراك'],
    [inTrial, 'Kitchen Display', 'أبقِ على التجربة', 'أنهِ التجربة الآن — لا يمكن بدؤها من جديد'],
  ])('names the buttons of ending %# in Arabic', async (app, name, keep, end) => {
    const person = userEvent.setup();
    renderDashboard([{ path: '/api/applications', body: dashboard([app]) }]);
    const arabicCard = await screen.findByRole('article', { name: `تطبيق ${name}` });
    await person.click(within(arabicCard).getByRole('button', { name: 'ألغِ الاشتراك' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByRole('button', { name: keep })).toBeTruthy();
    expect(within(confirm).getByRole('button', { name: end })).toBeTruthy();
    expect(within(confirm).queryByRole('button', { name: 'إلغاء' })).toBeNull();
  });

  it('says what happens next in Arabic: the review delay, the payment due and the invoice of a plan', async () => {
    const person = userEvent.setup();
    const owing = { ...inGrace, duePayment: duePayment(inGrace, 7, 213_750, '2027-01-19T12:00:00.000Z') };
    renderDashboard([
      { path: '/api/applications', body: dashboard([waiting, owing, notSubscribed], 3, { reviewHours: 24 }) },
    ]);
    const arabicCard = (name: string) => screen.getByRole('article', { name: `تطبيق ${name}` });
    await screen.findByRole('article', { name: 'تطبيق Loyalty' });
    expect(plain(arabicCard('Loyalty').textContent)).toContain(
      'يراجع مشغّل المنصة طلبك خلال يوم واحد، وستصلك رسالة بالبريد عند قبوله أو رفضه، وتصدر الفاتورة الأولى عند القبول.',
    );
    const accounting = plain(arabicCard('Accounting').textContent);
    expect(accounting).toContain('الفاتورة رقم ٧: ‏٢٬١٣٧٫٥٠ ج.م.‏، آخر موعد لدفعها الثلاثاء، ١٩ يناير ٢٠٢٧.');
    expect(accounting).toContain(
      'إن لم تُدفع حتى الثلاثاء، ١٩ يناير ٢٠٢٧، ينتهي الاشتراك ولن يتمكن فريقك من فتح تطبيق Accounting.',
    );
    await person.click(within(arabicCard('Point of Sale')).getByRole('button', { name: 'اشترك' }));
    const dialog = screen.getByRole('dialog', { name: 'الاشتراك في تطبيق Point of Sale' });
    expect(plain(dialog.textContent)).toContain(
      'عند قبول مشغّل المنصة للطلب، وتبدأ الفترة الأولى في ذلك اليوم.',
    );
  });

  it('says in Arabic when a changed plan’s invoice is issued and from when its price applies', async () => {
    const person = userEvent.setup();
    renderDashboard([{ path: '/api/applications', body: dashboard([subscribed, inGrace]) }]);
    const arabicCard = (name: string) => screen.getByRole('article', { name: `تطبيق ${name}` });
    await screen.findByRole('article', { name: 'تطبيق Inventory' });
    await person.click(within(arabicCard('Inventory')).getByRole('button', { name: 'غيّر الخطة' }));
    let dialog = screen.getByRole('dialog');
    const said = (text: string) => expect(plain(dialog.textContent)).toContain(text);
    // The waiting plan (annually) from the period's end, in Arabic-Egypt dates and amounts.
    said('تسري الخطة «سنوي» من الأربعاء، ٣١ مارس ٢٠٢٧: تصدر في ذلك اليوم فاتورة بقيمة');
    expect(plain(dialog.textContent)).toMatch(/بقيمة[^،]*٧٬٢٠٠٫٠٠[^،]*بدلًا من[^،]*٢٬١٣٧٫٥٠/);
    await person.click(within(dialog).getByRole('radio', { name: 'ربع سنوي' }));
    expect(plain(dialog.textContent)).toMatch(
      /تصدر الفاتورة القادمة بقيمة[^،]*٢٬١٣٧٫٥٠[^،]*في الأربعاء، ٣١ مارس ٢٠٢٧\./,
    );
    expect(plain(dialog.textContent)).not.toContain('تسري الخطة «');
    await person.click(within(dialog).getByRole('button', { name: 'إلغاء' }));

    // In grace, the period after the one already invoiced.
    await person.click(within(arabicCard('Accounting')).getByRole('button', { name: 'غيّر الخطة' }));
    dialog = screen.getByRole('dialog');
    await person.click(within(dialog).getByRole('radio', { name: 'شهري' }));
    said('تسري الخطة «شهري» من الاثنين، ٠٥ أبريل ٢٠٢٧');
  });

  it('prices the plans in Arabic for 3 locations', async () => {
    const person = userEvent.setup();
    renderDashboard([{ path: '/api/applications', body: dashboard([notSubscribed]) }]);
    const arabicCard = await screen.findByRole('article', { name: 'تطبيق Point of Sale' });
    await person.click(within(arabicCard).getByRole('button', { name: 'اشترك' }));
    const dialog = screen.getByRole('dialog', { name: 'الاشتراك في تطبيق Point of Sale' });
    const quarterly = plain(
      within(dialog).getByRole('radio', { name: 'ربع سنوي' }).closest('label')?.textContent,
    );
    expect(quarterly).toContain('وفّر ٥٪');
    expect(quarterly).toContain('٢٬١٣٧٫٥٠');
    expect(quarterly).toContain('لـ٣ مواقع');
  });
});
