import { brandsResource, validationCodes } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, users, workspaces } from '../src/db/schema/index.ts';
import {
  imageReferences,
  removeUnreferencedUploads,
  uploadedFileKey,
} from '../src/features/files/uploads.ts';
import { declaredImageFields } from '../src/resource-engine/images.ts';
import { createAppResources } from '../src/resources.ts';
import { api, dataOf, expectValidation, multipart, tinyPng } from './helpers/api.ts';
import { fileStoreDrivers, useFileStoreDriver } from './helpers/file-stores.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A workspace's uploads count against its quota (UPLOAD_QUOTA_BYTES), and an upload nothing
 * refers to is removed once it is older than the grace period (UPLOAD_GRACE_HOURS): on the
 * uploads folder and on an S3 bucket alike.
 */
let clock = new Date('2030-01-01T00:00:00Z');
const quotaBytes = tinyPng.length * 3;
const graceMs = 24 * 60 * 60 * 1000;
const references = imageReferences(createAppResources());

describe.each(fileStoreDrivers)('on the %s file store', (driver) => {
  let t: TestApp;
  const files = useFileStoreDriver(driver);

  beforeAll(async () => {
    t = await createTestApp({
      env: files.env(),
      now: () => clock,
      configure: (config) => {
        config.uploads.quotaBytes = quotaBytes;
        config.uploads.graceMs = graceMs;
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const png = (field: string) => ({ field, filename: 'a.png', type: 'image/png', content: tinyPng });
  function upload(member: TestMember, workspaceId: string, field: 'file' | 'files', files = 1) {
    const path = field === 'file' ? '/api/files' : '/api/files/bulk';
    return api(t.app, {
      method: 'POST',
      url: `${path}?workspaceId=${workspaceId}`,
      ...multipart(Array.from({ length: files }, () => png(field))),
      cookie: member.cookie,
    });
  }
  const storedFiles = async (workspaceId: string) => (await files.keys(t.config, `${workspaceId}/`)).length;
  const isStored = async (path: string) => (await t.app.fileStore.size(uploadedFileKey(path)!)) !== null;
  const cleanUp = () =>
    removeUnreferencedUploads(t.db, references, { store: t.app.fileStore, graceMs, now: clock });
  async function rowsOf(workspaceId: string) {
    const [row] = await t.db
      .select({ count: count() })
      .from(uploads)
      .where(eq(uploads.workspaceId, workspaceId));
    return row?.count ?? 0;
  }

  describe('the upload quota, per workspace', () => {
    it('uploads fill the quota; past it 400 UPLOAD_QUOTA_EXCEEDED with nothing stored, in that workspace only', async () => {
      const shop = await createWorkspace(t.db);
      const member = await addMember(t.db, shop.id, { tags: ['addFiles'] });
      expect((await upload(member, shop.id, 'files', 2)).status).toBe(201);

      // One file's room is left: a bulk of two is refused whole.
      expectValidation(
        await upload(member, shop.id, 'files', 2),
        'files',
        validationCodes.UPLOAD_QUOTA_EXCEEDED,
      );
      expect(await storedFiles(shop.id)).toBe(2);
      expect(await rowsOf(shop.id)).toBe(2);

      expect((await upload(member, shop.id, 'file')).status).toBe(201);
      const refused = await upload(member, shop.id, 'file');
      expectValidation(refused, 'file', validationCodes.UPLOAD_QUOTA_EXCEEDED);
      expect(await storedFiles(shop.id)).toBe(3);
      expect(await rowsOf(shop.id)).toBe(3);

      // Another workspace has a quota of its own.
      const neighbour = await createWorkspace(t.db);
      const neighbourMember = await addMember(t.db, neighbour.id, { tags: ['addFiles'] });
      expect((await upload(neighbourMember, neighbour.id, 'file')).status).toBe(201);
    });
  });

  describe('unreferenced uploads are removed after the grace period', () => {
    it('brands.logo, profile pictures and workspace logos are references, derived for every declared image field', () => {
      expect(declaredImageFields(brandsResource)).toEqual(['logo']);
      const named = references.map(({ column }) => column.name);
      expect(named).toEqual(expect.arrayContaining(['profile_picture', 'logo']));
      expect(references.length).toBe(
        2 +
          createAppResources().served.reduce(
            (sum, { storage }) => sum + declaredImageFields(storage.definition).length,
            0,
          ),
      );
    });

    it('an old unreferenced upload goes (row and file); referenced and young ones stay', async () => {
      const shop = await createWorkspace(t.db);
      const admin = await addMember(t.db, shop.id, { isAdmin: true });
      const uploaded = dataOf<{ urls: string[] }>(await upload(admin, shop.id, 'files', 3)).urls;
      const [brandLogo, workspaceLogo, orphan] = uploaded as [string, string, string];
      const brand = await api(t.app, {
        url: `/api/brands?workspaceId=${shop.id}`,
        body: {
          code: unique('b'),
          name: [
            { locale: 'en', value: 'Brand' },
            { locale: 'ar', value: 'علامة' },
          ],
          logo: brandLogo,
        },
        cookie: admin.cookie,
      });
      expect(brand.status, brand.text).toBe(201);
      await t.db.update(workspaces).set({ logo: workspaceLogo }).where(eq(workspaces.id, shop.id));

      // A day and a minute later another upload arrives (its form not saved yet), and a profile picture.
      clock = new Date(clock.getTime() + graceMs + 60_000);
      const other = await createWorkspace(t.db);
      const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
      const [picture, young] = dataOf<{ urls: string[] }>(await upload(otherAdmin, other.id, 'files', 2))
        .urls as [string, string];
      await t.db.update(users).set({ profilePicture: picture }).where(eq(users.id, otherAdmin.user.id));
      clock = new Date(clock.getTime() + graceMs + 60_000);
      const freshest = dataOf<{ url: string }>(await upload(otherAdmin, other.id, 'file')).url;

      const removed = await cleanUp();
      expect(removed).toContain(orphan);
      expect(removed).toContain(young);
      for (const kept of [brandLogo, workspaceLogo, picture, freshest]) expect(removed).not.toContain(kept);

      expect(await isStored(orphan)).toBe(false);
      expect(await isStored(young)).toBe(false);
      for (const kept of [brandLogo, workspaceLogo, picture, freshest]) {
        expect(await isStored(kept), kept).toBe(true);
        expect(await t.db.select().from(uploads).where(eq(uploads.path, kept))).toHaveLength(1);
      }
      expect(await t.db.select().from(uploads).where(eq(uploads.path, orphan))).toEqual([]);

      // A second pass finds nothing more; the brand's logo goes once the brand lets go of it.
      expect(await cleanUp()).toEqual([]);
      const brandId = dataOf<{ id: string }>(brand).id;
      await api(t.app, {
        method: 'PATCH',
        url: `/api/brands/${brandId}?workspaceId=${shop.id}`,
        body: { logo: null },
        cookie: admin.cookie,
      });
      expect(await cleanUp()).toEqual([brandLogo]);
      expect(await isStored(brandLogo)).toBe(false);
    });
  });
});

describe('the upload naming scheme', () => {
  it('only upload addresses map to a key of the store', () => {
    const id = '0b6c2f4e-1c1a-4b59-9a43-6d4f3e2a1b0c';
    expect(uploadedFileKey(`/files/${id}/${id}.png`)).toBe(`${id}/${id}.png`);
    for (const path of [
      `/files/../${id}/${id}.png`,
      `/files/${id}/../../etc.png`,
      `/other/${id}/${id}.png`,
      `/files/platform/${id}.png`,
    ]) {
      expect(uploadedFileKey(path), path).toBeNull();
    }
  });
});
