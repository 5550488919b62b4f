import { validationCodes } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceData } from '../src/resource-engine/data.ts';
import { declaredImageFields } from '../src/resource-engine/images.ts';
import { api, dataOf, expectValidation, multipart, tinyPng } from './helpers/api.ts';
import { type RouteTargets, sampleOf, seedTargets, testResources } from './helpers/route-scenarios.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * Every image field of every resource takes only files uploaded to the caller's workspace: the
 * engine's one check, derived from the declarations (a new resource's images are covered without
 * a line here). Fields nested in lists (a product's `variants.images`) take the same check; the
 * products' own tests send them, as a variant edit needs the product's options.
 */
let t: TestApp;
let shop: { id: string; admin: TestMember; targets: RouteTargets };
let theirUpload: string;

const withImages = testResources.served.filter(
  ({ storage }) => declaredImageFields(storage.definition).length > 0,
);
const cases = withImages.flatMap((data) =>
  declaredImageFields(data.storage.definition)
    .filter((field) => !field.includes('.'))
    .map((field) => ({ name: `${data.storage.definition.key}.${field}`, data, field })),
);

async function upload(workspaceId: string, member: TestMember): Promise<string> {
  const uploaded = await api(t.app, {
    method: 'POST',
    url: `/api/files?workspaceId=${workspaceId}`,
    ...multipart([{ field: 'file', filename: 'image.png', type: 'image/png', content: tinyPng }]),
    cookie: member.cookie,
  });
  return dataOf<{ url: string }>(uploaded).url;
}

beforeAll(async () => {
  t = await createTestApp();
  const { id } = await createWorkspace(t.db, 'Image Shop');
  const admin = await addMember(t.db, id, { isAdmin: true });
  shop = { id, admin, targets: await seedTargets(t.db, id) };
  const other = await createWorkspace(t.db, 'Other Image Shop');
  theirUpload = await upload(other.id, await addMember(t.db, other.id, { isAdmin: true }));
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'POST' | 'PATCH' | 'GET', path: string, body?: unknown) =>
  api(t.app, { method, url: `/api/${path}?workspaceId=${shop.id}`, body, cookie: shop.admin.cookie });

/**
 * The sample input with the image in `field`, as one URL or a list of one: whichever the
 * resource's input schema takes.
 */
function inputWith(data: ResourceData, field: string, url: string) {
  const sample = sampleOf(data.storage.definition.key)(shop.targets.records);
  const single = { ...sample, [field]: url };
  const isSingle = data.storage.definition.schemas.create.safeParse(single).success;
  return { input: isSingle ? single : { ...sample, [field]: [url] }, path: isSingle ? field : `${field}.0` };
}

const storedCount = async ({ storage: { table } }: ResourceData) =>
  (await t.db.select({ rows: count() }).from(table).where(eq(table.workspaceId, shop.id)))[0]!.rows;

describe("another workspace's upload in an image field", () => {
  it('the registry declares image fields the engine serves (a brand logo among them)', () => {
    expect(cases.map(({ name }) => name)).toContain('brands.logo');
  });

  it.each(cases)(
    '$name: create, bulk and update refused at the field, nothing changed',
    async ({ data, field }) => {
      const { path } = data.storage.definition;
      const verbs = data.storage.definition.verbs;
      const before = await storedCount(data);
      const refused = inputWith(data, field, theirUpload);

      if (verbs.includes('create')) {
        expectValidation(
          await call('POST', path, refused.input),
          refused.path,
          validationCodes.URL_IS_INVALID,
        );
      }
      if (verbs.includes('bulk')) {
        const valid = inputWith(data, field, await upload(shop.id, shop.admin)).input;
        const bulk = [valid, inputWith(data, field, theirUpload).input];
        expectValidation(
          await call('POST', `${path}/bulk`, bulk),
          `1.${refused.path}`,
          validationCodes.URL_IS_INVALID,
        );
      }
      expect(await storedCount(data)).toBe(before);

      if (verbs.includes('update')) {
        const id = shop.targets.records[data.storage.definition.key]!;
        const stored = dataOf(await call('GET', `${path}/${id}`));
        const change = inputWith(data, field, theirUpload);
        expectValidation(
          await call('PATCH', `${path}/${id}`, { [field]: change.input[field] }),
          change.path,
          validationCodes.URL_IS_INVALID,
        );
        expect(dataOf(await call('GET', `${path}/${id}`))).toEqual(stored);
      }
    },
  );

  it.each(cases)('$name: its own upload is taken by create, bulk and update', async ({ data, field }) => {
    const { path } = data.storage.definition;
    const verbs = data.storage.definition.verbs;
    const imageOf = (record: Record<string, unknown>) => [record[field]].flat()[0];

    if (verbs.includes('create')) {
      const own = await upload(shop.id, shop.admin);
      const created = await call('POST', path, inputWith(data, field, own).input);
      expect(created.status, created.text).toBe(201);
      expect(imageOf(dataOf(created))).toBe(own);
    }
    if (verbs.includes('bulk')) {
      const own = [await upload(shop.id, shop.admin), await upload(shop.id, shop.admin)];
      const created = await call(
        'POST',
        `${path}/bulk`,
        own.map((url) => inputWith(data, field, url).input),
      );
      expect(created.status, created.text).toBe(201);
      expect(dataOf<Record<string, unknown>[]>(created).map(imageOf)).toEqual(own);
    }
    if (verbs.includes('update')) {
      const own = await upload(shop.id, shop.admin);
      const id = shop.targets.records[data.storage.definition.key]!;
      const change = inputWith(data, field, own);
      const updated = await call('PATCH', `${path}/${id}`, { [field]: change.input[field] });
      expect(updated.status, updated.text).toBe(200);
      expect(imageOf(dataOf(updated))).toBe(own);
    }
  });
});
