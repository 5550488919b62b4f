import { type CategoryRecord, validationCodes } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, wasteCategories } from '../src/db/schema/index.ts';
import { systemCaller } from '../src/resource-engine/storage.ts';
import { createAppResources } from '../src/resources.ts';
import { dataOf, expectValidation } from './helpers/api.ts';
import { firstLockWait } from './helpers/lock-wait.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { unique } from './helpers/workspaces.ts';

/**
 * Category trees (categories, waste categories): a record cannot move under itself or any of its
 * descendants; another parent, a sibling or an unrelated record, is fine.
 */
let { t, shop, other, admin, otherAdmin } = {} as TwoShops;
useTwoShops('Tree Shop', (shops) => {
  ({ t, shop, other, admin, otherAdmin } = shops);
});

/** A description in English alone. */
const english = (value: string) => [{ locale: 'en' as const, value }];

const trees = [
  { key: 'categories', path: 'categories', table: categories },
  { key: 'wasteCategories', path: 'waste-categories', table: wasteCategories },
] as const;

describe.each(trees)('$key: parent loops', ({ key, path, table }) => {
  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    body?: unknown,
    workspace = shop,
    member = admin,
  ) => callInWorkspace(t, workspace, url, { method, body, member });
  const create = async (parentId: string | null = null, workspace = shop, member = admin) =>
    dataOf<CategoryRecord>(
      await call(
        'POST',
        path,
        {
          code: unique('t'),
          name: [{ locale: 'en', value: 'Node' }],
          description: english('A node'),
          parentId,
        },
        workspace,
        member,
      ),
    );
  const get = async (id: string) => dataOf<CategoryRecord>(await call('GET', `${path}/${id}`));

  /** root → child → grandchild, and the root's other child (a sibling of child). */
  async function tree() {
    const root = await create();
    const child = await create(root.id);
    const grandchild = await create(child.id);
    const sibling = await create(root.id);
    return { root, child, grandchild, sibling };
  }

  it('refuses a record under itself, its child or its grandchild, and changes nothing', async () => {
    const { root, child, grandchild } = await tree();
    for (const parent of [root, child, grandchild]) {
      expectValidation(
        await call('PATCH', `${path}/${root.id}`, { description: english('Moved'), parentId: parent.id }),
        'parentId',
        validationCodes.PARENT_IS_DESCENDANT,
      );
    }
    // Deeper in the tree too: the child under its own child.
    expectValidation(
      await call('PATCH', `${path}/${child.id}`, { description: english('Moved'), parentId: grandchild.id }),
      'parentId',
      validationCodes.PARENT_IS_DESCENDANT,
    );
    expect(await get(root.id)).toEqual(root);
    expect(await get(child.id)).toEqual(child);
    expect(await get(grandchild.id)).toEqual(grandchild);
  });

  it('accepts a sibling, an unrelated record, an ancestor higher up and the top level', async () => {
    const { root, child, grandchild, sibling } = await tree();
    const unrelated = await create();
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${child.id}`, { parentId: sibling.id })).parentId,
    ).toBe(sibling.id);
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${grandchild.id}`, { parentId: unrelated.id }))
        .parentId,
    ).toBe(unrelated.id);
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${grandchild.id}`, { parentId: root.id })).parentId,
    ).toBe(root.id);
    // The root may now go under the unrelated record: nothing of its branch is above it.
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${root.id}`, { parentId: unrelated.id })).parentId,
    ).toBe(unrelated.id);
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${root.id}`, { parentId: null })).parentId,
    ).toBeNull();
    // A change that does not name the parent is not checked against it.
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${root.id}`, { description: english('Renamed') }))
        .description,
    ).toEqual(english('Renamed'));
  });

  it("another workspace's record stays unknown, as a parent or as the record", async () => {
    const { root } = await tree();
    const foreign = await create(null, other, otherAdmin);
    expectValidation(
      await call('PATCH', `${path}/${root.id}`, { parentId: foreign.id }),
      'parentId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expect((await call('PATCH', `${path}/${foreign.id}`, { parentId: root.id })).status).toBe(404);
    expect(await get(root.id)).toEqual(root);
  });

  it('a loop already stored does not stop the check (it ends, and refuses a move into the loop)', async () => {
    const first = await create();
    const second = await create(first.id);
    // Written past the engine, as data from before the check could be.
    await t.db
      .update(table)
      .set({ parentId: second.id })
      .where(and(eq(table.workspaceId, shop.id), eq(table.id, first.id)));
    const outside = await create();
    expect(
      dataOf<CategoryRecord>(await call('PATCH', `${path}/${outside.id}`, { parentId: first.id })).parentId,
    ).toBe(first.id);
    expectValidation(
      await call('PATCH', `${path}/${first.id}`, { parentId: outside.id }),
      'parentId',
      validationCodes.PARENT_IS_DESCENDANT,
    );
  });

  // Two connections are needed for two moves at once; PGlite has one, so its writes never overlap.
  it.runIf(process.env.DATABASE_URL)(
    'two concurrent moves closing a loop cannot both pass: the second waits for the first, then is refused (PostgreSQL only)',
    async () => {
      // b → c; the first move puts a under c, the second b under a: together a loop a → c → b → a.
      const b = await create();
      const c = await create(b.id);
      const a = await create();
      const engine = createAppResources();
      const { second, waitedFor } = await t.db.transaction(async (tx) => {
        // The first move, not committed yet.
        await engine.data(key).update(tx, systemCaller(shop.id), a.id, { parentId: c.id });
        const second = call('PATCH', `${path}/${b.id}`, { parentId: a.id });
        return { second, waitedFor: await firstLockWait(t.db, second) };
      });
      // Without the tree's lock the second move passes its check and only waits for the row of a
      // (its foreign key), then stores the loop.
      expect(waitedFor).toBe('advisory');
      expectValidation(await second, 'parentId', validationCodes.PARENT_IS_DESCENDANT);
      expect((await get(a.id)).parentId).toBe(c.id);
      expect((await get(b.id)).parentId).toBeNull();
    },
  );
});
