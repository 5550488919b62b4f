import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dataOf, errorOf, expectValidation, multipart, tinyPng } from './helpers/api.ts';
import { fileStoreDrivers, useFileStoreDriver } from './helpers/file-stores.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * Image uploads (spec §7 `POST /files`, `/files/bulk`): stored per workspace under random names,
 * served back with their type; only images, within the size limit, all or none. On the uploads
 * folder and on an S3 bucket alike.
 * Permissions and other workspaces: the permission and tenant-isolation matrices.
 */
describe.each(fileStoreDrivers)('on the %s file store', (driver) => {
  let t: TestApp;
  let shop: { id: string };
  let editor: TestMember;
  const maxBytes = 4096;
  const files = useFileStoreDriver(driver);

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(maxBytes), ...files.env() } });
    shop = await createWorkspace(t.db, 'Upload Shop');
    editor = await addMember(t.db, shop.id, { tags: ['editFiles'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const png = (filename = 'logo.png', field = 'file') => ({
    field,
    filename,
    type: 'image/png',
    content: tinyPng,
  });
  const upload = (path: string, parts: ReturnType<typeof png>[], cookie = editor.cookie) =>
    api(t.app, { method: 'POST', url: `${path}?workspaceId=${shop.id}`, ...multipart(parts), cookie });
  const stored = async () => (await files.keys(t.config, `${shop.id}/`)).length;

  /** Writes a file straight into the store's storage, past the app (an operator's, another tool's). */
  async function storeDirectly(key: string, content: Buffer) {
    const bucket = files.bucket();
    if (!bucket) {
      const path = join(t.config.uploads.dir, key);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      return;
    }
    const client = new S3Client({
      endpoint: bucket.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: bucket.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: bucket.env.AWS_SECRET_ACCESS_KEY!,
      },
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    await client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: key, Body: content }));
    client.destroy();
  }

  describe('POST /api/files', () => {
    it('stores an image under a random name in the workspace folder, for the server account only, and serves it back', async () => {
      const response = await upload('/api/files', [png()]);
      expect(response.status, response.text).toBe(201);
      const { url } = dataOf<{ url: string }>(response);
      expect(url).toMatch(new RegExp(`^/files/${shop.id}/[0-9a-f-]{36}\\.png$`));
      // Folders 0700 and files 0600 whatever the process umask (platform/storage/private-files.ts).
      if (driver === 'local' && process.platform !== 'win32') {
        const modes = [
          t.config.uploads.dir,
          join(t.config.uploads.dir, shop.id),
          join(t.config.uploads.dir, url.slice('/files/'.length)),
        ].map((path) => (statSync(path).mode & 0o777).toString(8));
        expect(modes).toEqual(['700', '700', '600']);
      }

      const served = await t.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'");
      expect(served.headers['content-length']).toBe(String(tinyPng.length));
      expect(served.rawPayload.equals(tinyPng)).toBe(true);

      // A browser that has it answers with its validator: nothing is sent again.
      const etag = String(served.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const again = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('image/png');
    });

    it('judges a file by its content: a script named .png is refused and nothing is stored', async () => {
      const before = await stored();
      const response = await upload('/api/files', [
        {
          field: 'file',
          filename: 'logo.png',
          type: 'image/png',
          content: Buffer.from('<svg><script>alert(1)</script></svg>'),
        },
      ]);
      expectValidation(response, 'file.0', validationCodes.FILE_TYPE_NOT_ALLOWED);
      expect(await stored()).toBe(before);
    });

    it('refuses a file over UPLOAD_MAX_BYTES, two files, and a request without one', async () => {
      const big = { ...png(), content: Buffer.concat([tinyPng, Buffer.alloc(maxBytes)]) };
      expectValidation(await upload('/api/files', [big]), 'file.0', validationCodes.FILE_TOO_LARGE);
      expectValidation(
        await upload('/api/files', [png('a.png'), png('b.png')]),
        'file',
        validationCodes.TOO_MANY_FILES,
      );
      const json = await api(t.app, {
        url: `/api/files?workspaceId=${shop.id}`,
        body: {},
        cookie: editor.cookie,
      });
      expectValidation(json, 'file', validationCodes.FILE_IS_REQUIRED);
    });

    it('answers 401 without a session', async () => {
      const response = await upload('/api/files', [png()], '');
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('UNAUTHORIZED');
    });

    it('serves nothing for a name that was never stored, nor outside the uploads folder', async () => {
      expect((await t.app.inject({ url: `/files/${shop.id}/missing.png` })).statusCode).toBe(404);
      expect(
        (await t.app.inject({ url: `/files/${shop.id}/0b6c2f4e-1c1a-4b59-9a43-6d4f3e2a1b0c.png` }))
          .statusCode,
      ).toBe(404);
      expect((await t.app.inject({ url: '/files/../config.json' })).statusCode).toBe(404);
    });

    it('serves no stored file outside the naming scheme, even one that is there', async () => {
      const id = '0b6c2f4e-1c1a-4b59-9a43-6d4f3e2a1b0d';
      const outside = ['notes.png', `${shop.id}/notes.txt`, `${shop.id}/${id}.png.bak`, `platform/${id}.gif`];
      for (const key of outside) await storeDirectly(key, tinyPng);
      // The same content under a name of the scheme is served: only the name decides.
      await storeDirectly(`${shop.id}/${id}.png`, tinyPng);
      expect((await t.app.inject({ url: `/files/${shop.id}/${id}.png` })).statusCode).toBe(200);
      for (const key of outside) {
        expect((await t.app.inject({ url: `/files/${key}` })).statusCode, key).toBe(404);
      }
    });
  });

  describe('POST /api/files/bulk', () => {
    it('stores every image and answers their URLs in order', async () => {
      const response = await upload('/api/files/bulk', [png('a.png', 'files'), png('b.png', 'files')]);
      expect(response.status, response.text).toBe(201);
      const { urls } = dataOf<{ urls: string[] }>(response);
      expect(urls).toHaveLength(2);
      expect(new Set(urls).size).toBe(2);
    });

    it('stores none when one of them is not an image', async () => {
      const before = await stored();
      const response = await upload('/api/files/bulk', [
        png('a.png', 'files'),
        { field: 'files', filename: 'b.png', type: 'image/png', content: Buffer.from('%PDF-1.7') },
      ]);
      expectValidation(response, 'files.1', validationCodes.FILE_TYPE_NOT_ALLOWED);
      expect(await stored()).toBe(before);
    });

    it('refuses more than ten files', async () => {
      const parts = Array.from({ length: 11 }, (_, index) => png(`${index}.png`, 'files'));
      expectValidation(await upload('/api/files/bulk', parts), 'files', validationCodes.TOO_MANY_FILES);
    });
  });
});
