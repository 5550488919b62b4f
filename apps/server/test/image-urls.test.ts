import { randomUUID } from 'node:crypto';
import { type BrandRecord, storedImageExtensions, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands } from '../src/db/schema/index.ts';
import { detectImageType } from '../src/platform/storage/image-type.ts';
import { api, dataOf, expectValidation, multipart, tinyPng } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/** Image fields take only the URLs of files Dukkan stored (a brand's logo is the declared one). */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Logo Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: admin.cookie });
const brandInput = (logo: string | null = null) => ({
  code: unique('b'),
  name: [{ locale: 'en', value: 'Roastery' }],
  logo,
});
const storedBrands = async () => t.db.select().from(brands).where(eq(brands.workspaceId, shop.id));

const hostileLogos = [
  '/files/../api/auth/logout',
  '/files/%2e%2e/api/auth/logout',
  '/files/..%2fapi%2fauth%2flogout',
  'https://evil.invalid/logo.png',
  `//evil.invalid/files/${randomUUID()}/${randomUUID()}.png`,
];

describe('a brand logo', () => {
  it.each(hostileLogos)('%s: VALIDATION at logo, nothing stored', async (logo) => {
    const before = await storedBrands();
    expectValidation(await call('POST', 'brands', brandInput(logo)), 'logo', validationCodes.URL_IS_INVALID);
    expect(await storedBrands()).toEqual(before);
  });

  it.each(hostileLogos)('%s: refused on an edit too, the stored logo kept', async (logo) => {
    const brand = dataOf<BrandRecord>(await call('POST', 'brands', brandInput()));
    expectValidation(
      await call('PATCH', `brands/${brand.id}`, { logo }),
      'logo',
      validationCodes.URL_IS_INVALID,
    );
    const [row] = (await storedBrands()).filter((stored) => stored.id === brand.id);
    expect(row?.logo).toBeNull();
  });

  it('takes the URL the upload route returned, as it is', async () => {
    const uploaded = await api(t.app, {
      method: 'POST',
      url: `/api/files?workspaceId=${shop.id}`,
      ...multipart([{ field: 'file', filename: 'logo.png', type: 'image/png', content: tinyPng }]),
      cookie: admin.cookie,
    });
    const { url } = dataOf<{ url: string }>(uploaded);
    const brand = dataOf<BrandRecord>(await call('POST', 'brands', brandInput(url)));
    expect(brand.logo).toBe(url);
  });
});

describe("the contract's stored-image extensions", () => {
  /** The first bytes of each format the upload route accepts. */
  const samples: Record<string, Uint8Array> = {
    png: tinyPng,
    jpg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
    gif: new TextEncoder().encode('GIF89a'),
    webp: new TextEncoder().encode('RIFF\0\0\0\0WEBP'),
    avif: new TextEncoder().encode('\0\0\0\x1cftypavif'),
  };

  it('name every extension the upload route gives a file', () => {
    const detected = Object.values(samples).map((bytes) => detectImageType(bytes)?.extension);
    expect(detected.sort()).toEqual([...storedImageExtensions].sort());
  });
});
