import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessRequests, users } from '../src/db/schema/index.ts';
import {
  altchaToken,
  api,
  captchaToken,
  createUser,
  dataOf,
  errorOf,
  expectValidation,
  fetchChallenge,
  solveAltcha,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { OPERATOR_EMAIL: 'operator@shop.example' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.mails.length = 0;
});

let sequence = 0;
/** A valid request with a unique email and phone. */
function validRequest(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    name: 'Sara Ali',
    email: `sara${sequence}@shop.example`,
    phone: `+20 100 ${String(1000000 + sequence).slice(-7)}`,
    companyName: 'Sara Foods',
    companyWebsite: 'https://sara.example',
    businessCategory: 'food',
    howDidYouHearAboutUs: 'google',
    ...overrides,
  };
}

async function submit(body: Record<string, unknown>, headers?: Record<string, string>) {
  return api(t.app, { url: '/api/auth/request-for-access', body, headers });
}

async function rowsFor(email: string) {
  return t.db.select().from(accessRequests).where(eq(accessRequests.email, email));
}

describe('POST /api/auth/request-for-access', () => {
  it('stores a pending request and mails the requester and the operator', async () => {
    const body = validRequest({ reCaptchaToken: await captchaToken(t.app) });
    const response = await submit(body);
    expect(response.status, response.text).toBe(200);
    const data = dataOf<{ id: string; status: string; createdAt: string }>(response);
    expect(data.status).toBe('pending');
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(data.createdAt))).toBe(false);

    const [row] = await rowsFor(body.email);
    expect(row).toMatchObject({
      id: data.id,
      name: 'Sara Ali',
      phone: body.phone.replaceAll(' ', ''),
      companyName: 'Sara Foods',
      companyWebsite: 'https://sara.example',
      businessCategory: 'food',
      howDidYouHearAboutUs: 'google',
      language: 'en',
      status: 'pending',
    });

    expect(t.mails.map((mail) => mail.to).sort()).toEqual([body.email, 'operator@shop.example'].sort());
    const confirmation = t.mails.find((mail) => mail.to === body.email)!;
    expect(confirmation.subject).toBe('We received your request for Dukkan');
    // The address is unverified: the requester's own text never goes back to it.
    for (const typed of ['Sara Ali', 'Sara Foods', 'sara.example', body.phone]) {
      expect(confirmation.text).not.toContain(typed);
      expect(confirmation.html).not.toContain(typed);
      expect(confirmation.subject).not.toContain(typed);
    }
    expect(confirmation.text).toBe(
      [
        'Hello,',
        'Thank you for requesting access to Dukkan. We will review your request and write to you at this address.',
        'If you did not ask for access, ignore this mail.',
        '— Dukkan',
      ].join('\n\n'),
    );
    expect(confirmation.html).toContain('dir="ltr"');
    const notice = t.mails.find((mail) => mail.to === 'operator@shop.example')!;
    expect(notice.subject).toContain('Sara Foods');
    for (const value of [
      body.email,
      body.phone.replaceAll(' ', ''),
      'https://sara.example',
      'food',
      'google',
    ]) {
      expect(notice.text).toContain(value);
    }
  });

  it('normalises the email, trims text, and stores an empty website as null', async () => {
    const body = validRequest({
      name: '  Omar  ',
      companyWebsite: '',
      reCaptchaToken: await captchaToken(t.app),
    });
    const upper = `  ${body.email.toUpperCase()} `;
    const response = await submit({ ...body, email: upper });
    expect(response.status, response.text).toBe(200);
    const [row] = await rowsFor(body.email);
    expect(row).toMatchObject({ name: 'Omar', companyWebsite: null });
  });

  it('a request without a website is accepted', async () => {
    const { companyWebsite: _omitted, ...body } = validRequest({ reCaptchaToken: await captchaToken(t.app) });
    expect((await submit(body)).status).toBe(200);
    expect((await rowsFor(body.email))[0]!.companyWebsite).toBeNull();
  });

  it('a 60-character name and a 15-character phone are accepted (the upper bounds)', async () => {
    const body = validRequest({
      name: 'n'.repeat(60),
      phone: '+20 (100) 123-456789',
      reCaptchaToken: await captchaToken(t.app),
    });
    const response = await submit(body);
    expect(response.status, response.text).toBe(200);
    expect((await rowsFor(body.email))[0]!.phone).toBe('+20100123456789');
  });

  it('takes what Egyptian users type and stores it normalized: Arabic-Indic digits, groups, a bare website', async () => {
    for (const [phone, companyWebsite, stored] of [
      ['٠١٠٠٢٣٤٥٦٧٨', 'shop.example', { phone: '01002345678', companyWebsite: 'https://shop.example' }],
      [
        '+20 100 123 4567',
        ' www.shop.example/menu ',
        { phone: '+201001234567', companyWebsite: 'https://www.shop.example/menu' },
      ],
      [
        '+٢٠-١١١-٢٣٤-٥٦٧٨',
        'https://shop.example',
        { phone: '+201112345678', companyWebsite: 'https://shop.example' },
      ],
    ] as const) {
      const body = validRequest({ phone, companyWebsite, reCaptchaToken: await captchaToken(t.app) });
      const response = await submit(body);
      expect(response.status, response.text).toBe(200);
      expect((await rowsFor(body.email))[0]).toMatchObject(stored);
    }
  });

  it('mails the requester in Arabic when the page says ar, or the browser prefers it', async () => {
    const chosen = validRequest({ language: 'ar', reCaptchaToken: await captchaToken(t.app) });
    expect((await submit(chosen)).status).toBe(200);
    const arabic = t.mails.find((mail) => mail.to === chosen.email)!;
    expect(arabic.subject).toBe('تلقّينا طلبك للانضمام إلى دكّان');
    expect(arabic.html).toContain('dir="rtl"');
    expect(arabic.html).toContain('lang="ar"');
    expect((await rowsFor(chosen.email))[0]!.language).toBe('ar');
    // The operator's notice stays in English.
    expect(t.mails.find((mail) => mail.to === 'operator@shop.example')!.subject).toContain('access request');

    t.mails.length = 0;
    const browser = validRequest({ reCaptchaToken: await captchaToken(t.app) });
    expect((await submit(browser, { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' })).status).toBe(200);
    expect(t.mails.find((mail) => mail.to === browser.email)!.subject).toBe('تلقّينا طلبك للانضمام إلى دكّان');
  });

  it('mails the operator in Arabic once the operator’s address is an account that chose Arabic', async () => {
    const operator = await createUser(t.db, { email: 'operator@shop.example', language: 'ar' });
    try {
      const body = validRequest({ reCaptchaToken: await captchaToken(t.app) });
      expect((await submit(body)).status).toBe(200);
      // The requester keeps the page's language (English); the operator reads Arabic.
      expect(t.mails.find((mail) => mail.to === body.email)!.subject).toBe(
        'We received your request for Dukkan',
      );
      const notice = t.mails.find((mail) => mail.to === 'operator@shop.example')!;
      expect(notice.subject).toBe('طلب انضمام إلى دكّان: Sara Foods');
      expect(notice.html).toContain('dir="rtl"');
      for (const line of [
        'وصل طلب انضمام جديد:',
        'الاسم: Sara Ali',
        `البريد الإلكتروني: ${body.email}`,
        'الشركة: Sara Foods',
        'كيف عرفت بنا: google',
        'وافق عليه أو ارفضه بالأمر `npm run dukkan -- requests`.',
      ])
        expect(notice.text).toContain(line);
    } finally {
      await t.db.delete(users).where(eq(users.id, operator.id));
    }
  });

  it('ignores unknown fields and never stores them', async () => {
    const body = validRequest({
      reCaptchaToken: await captchaToken(t.app),
      status: 'approved',
      id: '00000000-0000-4000-8000-000000000000',
      createdAt: '2000-01-01T00:00:00.000Z',
      isAdmin: true,
    });
    const response = await submit(body);
    expect(response.status).toBe(200);
    const data = dataOf<{ id: string; status: string }>(response);
    expect(data.id).not.toBe('00000000-0000-4000-8000-000000000000');
    const [row] = await rowsFor(body.email);
    expect(row!.status).toBe('pending');
    expect(row!.id).toBe(data.id);
    expect(row!.createdAt.getFullYear()).toBeGreaterThan(2020);
    expect(Object.keys(row!)).not.toContain('isAdmin');
  });

  describe('validation (spec §5), nothing written, no mail', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['name missing', { name: undefined }, 'name', 'NAME_IS_REQUIRED'],
      ['name empty', { name: '' }, 'name', 'NAME_IS_REQUIRED'],
      ['name blank', { name: '   ' }, 'name', 'NAME_IS_REQUIRED'],
      ['name of 61', { name: 'n'.repeat(61) }, 'name', 'NAME_TOO_LONG'],
      ['email missing', { email: undefined }, 'email', 'EMAIL_IS_INVALID'],
      ['email invalid', { email: 'sara@' }, 'email', 'EMAIL_IS_INVALID'],
      ['email over 255', { email: `${'s'.repeat(250)}@shop.example` }, 'email', 'EMAIL_TOO_LONG'],
      ['phone missing', { phone: undefined }, 'phone', 'PHONE_IS_REQUIRED'],
      ['phone empty', { phone: '' }, 'phone', 'PHONE_IS_REQUIRED'],
      ['phone with letters', { phone: '+20 abc 123456' }, 'phone', 'PHONE_IS_INVALID'],
      ['phone with Arabic letters', { phone: '٠١٠٠٢٣٤٥٦٧٨ص' }, 'phone', 'PHONE_IS_INVALID'],
      ['phone with a slash', { phone: '020/123/45678' }, 'phone', 'PHONE_IS_INVALID'],
      ['phone of 9', { phone: '123456789' }, 'phone', 'PHONE_TOO_SHORT'],
      ['phone of 9 in Arabic-Indic digits', { phone: '٠١٠ ٠٢٣ ٤٥٦' }, 'phone', 'PHONE_TOO_SHORT'],
      ['phone of 16', { phone: '1234567890123456' }, 'phone', 'PHONE_TOO_LONG'],
      ['phone of 16 once normalized', { phone: '+20 (100) 1234-567890' }, 'phone', 'PHONE_TOO_LONG'],
      ['company missing', { companyName: undefined }, 'companyName', 'COMPANY_NAME_IS_REQUIRED'],
      ['company blank', { companyName: ' ' }, 'companyName', 'COMPANY_NAME_IS_REQUIRED'],
      ['company of 256', { companyName: 'c'.repeat(256) }, 'companyName', 'COMPANY_NAME_TOO_LONG'],
      ['website not a url', { companyWebsite: 'not a url' }, 'companyWebsite', 'URL_IS_INVALID'],
      ['website ftp', { companyWebsite: 'ftp://files.example' }, 'companyWebsite', 'URL_IS_INVALID'],
      ['website javascript:', { companyWebsite: 'javascript:alert(1)' }, 'companyWebsite', 'URL_IS_INVALID'],
      ['website a bare word', { companyWebsite: 'shop' }, 'companyWebsite', 'URL_IS_INVALID'],
      [
        'category missing',
        { businessCategory: undefined },
        'businessCategory',
        'BUSINESS_CATEGORY_IS_REQUIRED',
      ],
      ['category unknown', { businessCategory: 'cars' }, 'businessCategory', 'BUSINESS_CATEGORY_IS_REQUIRED'],
      [
        'referral missing',
        { howDidYouHearAboutUs: undefined },
        'howDidYouHearAboutUs',
        'HOW_DID_YOU_HEAR_IS_REQUIRED',
      ],
      [
        'referral unknown',
        { howDidYouHearAboutUs: 'radio' },
        'howDidYouHearAboutUs',
        'HOW_DID_YOU_HEAR_IS_REQUIRED',
      ],
      ['language unknown', { language: 'fr' }, 'language', 'LANGUAGE_IS_INVALID'],
    ];
    it.each(cases)('%s → VALIDATION', async (_label, overrides, key, code) => {
      const before = await tableCounts(t.db);
      const response = await submit(validRequest({ ...overrides, reCaptchaToken: 'unused' }));
      expectValidation(response, key, code);
      expect(await tableCounts(t.db)).toEqual(before);
      expect(t.mails).toEqual([]);
    });

    it('every category and referral source of the spec is accepted', async () => {
      for (const businessCategory of ['food', 'technology', 'finance', 'health', 'education', 'other']) {
        const response = await submit(
          validRequest({ businessCategory, reCaptchaToken: await captchaToken(t.app) }),
        );
        expect(response.status, businessCategory).toBe(200);
      }
      for (const howDidYouHearAboutUs of ['google', 'facebook', 'tiktok', 'friend', 'other']) {
        const response = await submit(
          validRequest({ howDidYouHearAboutUs, reCaptchaToken: await captchaToken(t.app) }),
        );
        expect(response.status, howDidYouHearAboutUs).toBe(200);
      }
    });
  });

  describe('captcha', () => {
    it('missing → CAPTCHA error on reCaptchaToken, nothing written, no mail', async () => {
      const before = await tableCounts(t.db);
      for (const reCaptchaToken of [undefined, '']) {
        const response = await submit(validRequest({ reCaptchaToken }));
        expect(response.status).toBe(400);
        expect(errorOf(response)).toMatchObject({
          code: 'CAPTCHA',
          name: 'CaptchaError',
          key: 'reCaptchaToken',
        });
      }
      expect(await tableCounts(t.db)).toEqual(before);
      expect(t.mails).toEqual([]);
    });

    it('wrong (a tampered answer) → CAPTCHA error', async () => {
      const challenge = await fetchChallenge(t.app);
      const { number } = await solveAltcha(challenge);
      const before = await tableCounts(t.db);
      const response = await submit(validRequest({ reCaptchaToken: altchaToken(challenge, number + 1) }));
      expect(response.status).toBe(400);
      expect(errorOf(response).code).toBe('CAPTCHA');
      expect(await tableCounts(t.db)).toEqual(before);
      // The right answer to the same challenge still works: the wrong one did not burn it.
      expect((await submit(validRequest({ reCaptchaToken: altchaToken(challenge, number) }))).status).toBe(
        200,
      );
    });

    it('replayed (the same token twice) → CAPTCHA error the second time', async () => {
      const token = await captchaToken(t.app);
      const first = validRequest({ reCaptchaToken: token });
      expect((await submit(first)).status).toBe(200);
      const second = validRequest({ reCaptchaToken: token });
      const response = await submit(second);
      expect(response.status).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'CAPTCHA', key: 'reCaptchaToken' });
      expect(await rowsFor(second.email)).toEqual([]);
    });
  });

  describe('duplicates', () => {
    it('the same email again → 409 DB, target email, nothing written, no mail', async () => {
      const original = validRequest({ reCaptchaToken: await captchaToken(t.app) });
      expect((await submit(original)).status).toBe(200);
      t.mails.length = 0;
      const before = await tableCounts(t.db);
      const again = validRequest({
        email: original.email.toUpperCase(),
        reCaptchaToken: await captchaToken(t.app),
      });
      const response = await submit(again);
      expect(response.status).toBe(409);
      expect(errorOf(response)).toMatchObject({
        statusCode: 409,
        code: 'DB',
        name: 'DBError',
        target: 'email',
      });
      const after = await tableCounts(t.db);
      expect(after.access_requests).toBe(before.access_requests);
      expect(t.mails).toEqual([]);
    });

    it('the same phone again → 409 DB, target phone', async () => {
      const original = validRequest({ reCaptchaToken: await captchaToken(t.app) });
      expect((await submit(original)).status).toBe(200);
      const before = await tableCounts(t.db);
      const response = await submit(
        validRequest({ phone: original.phone, reCaptchaToken: await captchaToken(t.app) }),
      );
      expect(response.status).toBe(409);
      expect(errorOf(response)).toMatchObject({ code: 'DB', target: 'phone' });
      expect((await tableCounts(t.db)).access_requests).toBe(before.access_requests);
    });

    it('the same phone in other digits and groups → 409 DB, target phone (stored normalized)', async () => {
      const original = validRequest({ phone: '+20 122 333 4444', reCaptchaToken: await captchaToken(t.app) });
      expect((await submit(original)).status).toBe(200);
      const before = await tableCounts(t.db);
      const response = await submit(
        validRequest({ phone: '+٢٠ (١٢٢) ٣٣٣-٤٤٤٤', reCaptchaToken: await captchaToken(t.app) }),
      );
      expect(response.status).toBe(409);
      expect(errorOf(response)).toMatchObject({ code: 'DB', target: 'phone' });
      expect((await tableCounts(t.db)).access_requests).toBe(before.access_requests);
    });
  });
});
