import { type PaymentInstructions, paymentInstructionsSchema } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appMeta } from '../src/db/schema/index.ts';
import { bankTransferKey, readBankTransfer } from '../src/platform/payments/bank-transfer.ts';
import { api, dataOf, errorOf } from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, tagsExcept } from './helpers/workspaces.ts';

/**
 * Bank transfer, how a workspace pays its invoices: the operator sets, shows and clears the
 * instructions (`set-bank-transfer`, `bank-transfer`, `clear-bank-transfer`), kept in the
 * database; `GET payments/instructions` serves them to the members who see what is due.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
const eqKey = () => eq(appMeta.key, bankTransferKey);
beforeEach(async () => {
  await t.db.delete(appMeta).where(eqKey());
});

const run = (...argv: string[]) => runCliOn(t, argv);

const fullArgs = [
  'set-bank-transfer',
  '--holder-en',
  'Dukkan Platform LLC',
  '--holder-ar',
  'شركة منصة دكان',
  '--bank-en',
  'National Bank of Egypt',
  '--bank-ar',
  'البنك الأهلي المصري',
  '--account',
  'eg38 0019 0005 0000 0000 2631 8000 2',
  '--notes-en',
  'Transfers arrive within two working days.',
  '--notes-ar',
  'تصل التحويلات خلال يومي عمل.',
];

const stored = () => t.db.select().from(appMeta).where(eqKey());

describe('the operator’s bank-transfer commands', () => {
  it('set keeps both languages and the account in capitals; show prints them; clear removes them', async () => {
    const set = await run(...fullArgs);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Saved.');
    expect(await readBankTransfer(t.db)).toEqual({
      accountHolder: [
        { locale: 'en', value: 'Dukkan Platform LLC' },
        { locale: 'ar', value: 'شركة منصة دكان' },
      ],
      bank: [
        { locale: 'en', value: 'National Bank of Egypt' },
        { locale: 'ar', value: 'البنك الأهلي المصري' },
      ],
      account: 'EG38 0019 0005 0000 0000 2631 8000 2',
      notes: [
        { locale: 'en', value: 'Transfers arrive within two working days.' },
        { locale: 'ar', value: 'تصل التحويلات خلال يومي عمل.' },
      ],
    });

    const shown = await run('bank-transfer');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Account holder  en: "Dukkan Platform LLC"  ar: "شركة منصة دكان"');
    expect(shown.stdout).toContain('Account         EG38 0019 0005 0000 0000 2631 8000 2');

    // Set again with one language and no note: the whole set is replaced.
    const again = await run(
      'set-bank-transfer',
      '--holder-ar',
      'شركة منصة دكان',
      '--bank-en',
      'CIB',
      '--account',
      '100012345678',
    );
    expect(again.code, again.stderr).toBe(0);
    expect(await readBankTransfer(t.db)).toEqual({
      accountHolder: [{ locale: 'ar', value: 'شركة منصة دكان' }],
      bank: [{ locale: 'en', value: 'CIB' }],
      account: '100012345678',
      notes: [],
    });
    expect(await stored()).toHaveLength(1);

    const cleared = await run('clear-bank-transfer');
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/^Cleared\. No bank-transfer instructions/);
    expect(await stored()).toEqual([]);
    expect((await run('bank-transfer')).stdout).toMatch(
      /^No bank-transfer instructions: .*contact the operator/,
    );
    // Clearing nothing is no error.
    expect((await run('clear-bank-transfer')).code).toBe(0);
  });

  it('refuses bad input with exit code 2, one line, and nothing changed', async () => {
    expect((await run(...fullArgs)).code).toBe(0);
    const before = await stored();
    const refusals: [string[], RegExp][] = [
      [
        ['set-bank-transfer', '--bank-en', 'CIB', '--account', '1234'],
        /--holder-en or --holder-ar is required/,
      ],
      [['set-bank-transfer', '--holder-en', 'X', '--account', '1234'], /--bank-en or --bank-ar is required/],
      [['set-bank-transfer', '--holder-en', 'X', '--bank-en', 'CIB'], /--account .* is required/],
      [
        ['set-bank-transfer', '--holder-en', 'X', '--bank-en', 'CIB', '--account', 'EG38/12'],
        /--account must be/,
      ],
      [
        ['set-bank-transfer', '--holder-en', '   ', '--bank-en', 'CIB', '--account', '1'],
        /--holder-en or --holder-ar/,
      ],
      [
        ['set-bank-transfer', '--holder-en', 'x'.repeat(141), '--bank-en', 'CIB', '--account', '1'],
        /--holder-en is longer than 140/,
      ],
      [
        ['set-bank-transfer', '--holder-en', 'A\nB', '--bank-en', 'CIB', '--account', '1'],
        /--holder-en must not hold control characters or line breaks/,
      ],
      [
        ['set-bank-transfer', '--holder-en', 'X', '--bank-en', 'CIB', '--account', '1', '--iban', '2'],
        /Unknown option/,
      ],
      [['bank-transfer', 'extra'], /takes no arguments/],
      [['clear-bank-transfer', '--all'], /Unknown option/],
    ];
    for (const [argv, message] of refusals) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(await stored(), argv.join(' ')).toEqual(before);
    }
  });

  it('a note may span lines', async () => {
    const result = await run(
      'set-bank-transfer',
      '--holder-en',
      'X',
      '--bank-en',
      'CIB',
      '--account',
      '1',
      '--notes-en',
      'Line one\nLine two',
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await readBankTransfer(t.db))?.notes).toEqual([{ locale: 'en', value: 'Line one\nLine two' }]);
  });
});

describe('GET /api/payments/instructions', () => {
  const get = (workspaceId: string, cookie?: string) =>
    api(t.app, { url: `/api/payments/instructions?workspaceId=${workspaceId}`, cookie });

  it('answers the operator’s instructions to a member who sees invoices or the dashboard; null when none', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const none = await get(shop.id, admin.cookie);
    expect(none.status, none.text).toBe(200);
    expect(dataOf<PaymentInstructions>(none)).toEqual({ provider: 'bank-transfer', bankTransfer: null });

    expect((await run(...fullArgs)).code).toBe(0);
    const answered = dataOf<PaymentInstructions>(await get(shop.id, admin.cookie));
    expect(paymentInstructionsSchema.safeParse(answered).error).toBeUndefined();
    expect(answered.bankTransfer).toEqual(await readBankTransfer(t.db));
    expect(answered.bankTransfer?.account).toBe('EG38 0019 0005 0000 0000 2631 8000 2');

    for (const tags of [['viewPayments'], ['viewApplications']] as const) {
      const member = await addMember(t.db, shop.id, { tags: [...tags] });
      const response = await get(shop.id, member.cookie);
      expect(response.status, tags[0]).toBe(200);
      expect(dataOf<PaymentInstructions>(response).bankTransfer?.account).toBe(
        'EG38 0019 0005 0000 0000 2631 8000 2',
      );
    }
  });

  it('signed out: 401; without viewPayments or viewApplications: 403; another workspace’s id: 403, nothing of it', async () => {
    expect((await run(...fullArgs)).code).toBe(0);
    const shop = await createWorkspace(t.db);
    const signedOut = await get(shop.id);
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).not.toContain('EG38');

    const blind = await addMember(t.db, shop.id, { tags: tagsExcept(['viewPayments', 'viewApplications']) });
    const refused = await get(shop.id, blind.cookie);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
    expect(refused.text).not.toContain('EG38');

    const other = await createWorkspace(t.db);
    const stranger = await addMember(t.db, other.id, { isAdmin: true });
    const foreign = await get(shop.id, stranger.cookie);
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('EG38');

    const bad = await api(t.app, {
      url: `/api/payments/instructions?workspaceId=${other.id}&x=1`,
      cookie: stranger.cookie,
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe('VALIDATION');
  });
});
