import { validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import {
  createSample,
  isCreatable,
  type RouteTargets,
  sampleOf,
  seedTargets,
  testResources,
} from './helpers/route-scenarios.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * A reference to a record that can be disabled (a location's brand, a category's parent), over
 * every such reference of the registry: a disabled record is refused as a new choice, and a
 * reference already stored stays when its record is disabled later, so the form can still save.
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;
let targets: RouteTargets;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Disabled References Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  targets = await seedTargets(t.db, shop.id);
});
afterAll(async () => {
  await t?.close();
});

const references = testResources.served.filter(isCreatable).flatMap((data) =>
  Object.entries(data.storage.references).flatMap(([field, table]) => {
    const target = testResources.served.find((candidate) => candidate.storage.table === table)!;
    const name = `${data.storage.definition.key}.${field} → ${target.storage.definition.key}`;
    return target.storage.definition.hasStatus ? [[name, data, field, target] as const] : [];
  }),
);

it('finds the references to records that can be disabled', () => {
  expect(references.map(([name]) => name)).toContain('locations.brandId → brands');
});

describe.each(references)('%s', (_name, data, field, target) => {
  const url = (path = '') => `/api/${data.storage.definition.path}${path}?workspaceId=${shop.id}`;
  const setStatus = (id: string, status: 'active' | 'inactive') =>
    api(t.app, {
      method: 'PATCH',
      url: `/api/${target.storage.definition.path}/${id}?workspaceId=${shop.id}`,
      body: { status },
      cookie: admin.cookie,
    });
  const input = (referenced: string) => ({
    ...sampleOf(data.storage.definition.key)(targets.records),
    [field]: referenced,
  });

  it('refuses a disabled record as a new choice; keeps one chosen before it was disabled', async () => {
    const chosen = await createSample(t.db, target, shop.id, targets.records);
    const disabled = await createSample(t.db, target, shop.id, targets.records);
    expect((await setStatus(disabled, 'inactive')).status).toBe(200);

    const refused = await api(t.app, { url: url(), body: input(disabled), cookie: admin.cookie });
    expectValidation(refused, field, validationCodes.REFERENCE_IS_DISABLED);

    const created = await api(t.app, { url: url(), body: input(chosen), cookie: admin.cookie });
    expect(created.status, created.text).toBe(201);
    const id = dataOf<{ id: string }>(created).id;
    expect((await setStatus(chosen, 'inactive')).status).toBe(200);

    // Saved again with its now disabled choice: allowed, the reference stays.
    const kept = await api(t.app, {
      method: 'PATCH',
      url: url(`/${id}`),
      body: input(chosen),
      cookie: admin.cookie,
    });
    expect(kept.status, kept.text).toBe(200);
    expect(dataOf(kept)[field]).toBe(chosen);

    // Moved to another disabled record: refused like a new choice, and nothing changes.
    const moved = await api(t.app, {
      method: 'PATCH',
      url: url(`/${id}`),
      body: input(disabled),
      cookie: admin.cookie,
    });
    expectValidation(moved, field, validationCodes.REFERENCE_IS_DISABLED);
    const stored = await api(t.app, { url: url(`/${id}`), cookie: admin.cookie });
    expect(dataOf(stored)[field]).toBe(chosen);

    // Enabled again, it can be chosen again.
    expect((await setStatus(disabled, 'active')).status).toBe(200);
    const chosenAgain = await api(t.app, { url: url(), body: input(disabled), cookie: admin.cookie });
    expect(chosenAgain.status, chosenAgain.text).toBe(201);
  });
});
