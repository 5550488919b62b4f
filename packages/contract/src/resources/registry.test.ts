import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { permissionResources } from '../permissions/tags.ts';
import { checkResource, defineResource, type ResourceDefinition } from '../resource-kit/define-resource.ts';
import { codeField } from '../resource-kit/fields.ts';
import { fieldLabel, statusRecordFields } from './catalogue-common.ts';
import { resources } from './index.ts';

/*
 * A simple resource is written in four places: its declaration, its registry line (with a
 * permission line for a new permission resource), its table with the generated migration, its
 * texts. This is the contract's half of the proof that each forgotten place says where to fix it
 * (the server's is `apps/server/test/a-resource-in-four-places.test.ts`, the web's
 * `apps/web/src/app/a-resource-in-four-places.test.ts`).
 */

const registryFile = 'packages/contract/src/resources/index.ts';

const isDeclaration = (value: unknown): value is ResourceDefinition =>
  typeof value === 'object' &&
  value !== null &&
  ['key', 'path', 'permission', 'verbs', 'schemas'].every((field) => field in value);

/** The declarations the modules of `resources/` export that the registry does not list, as sentences. */
function unregistered(
  modules: readonly (readonly [file: string, exports: Record<string, unknown>])[],
  registry: readonly ResourceDefinition[],
): string[] {
  return modules.flatMap(([file, exports]) =>
    Object.values(exports)
      .filter(isDeclaration)
      .filter((declaration) => !registry.some((registered) => registered.key === declaration.key))
      .map(
        (declaration) =>
          `${file} declares the resource ${declaration.key}, which the registry does not list: add it to \`resources\` in ${registryFile} (and \`export * from './${file}'\`)`,
      ),
  );
}

const widgetInput = lazySchema(() => z.object({ code: codeField, note: z.string() }));
/** A resource as a developer declares one. */
const widgets = defineResource({
  key: 'widgets',
  path: 'widgets',
  permission: 'Brands',
  menu: { group: 'data', order: 990 },
  verbs: ['list', 'get', 'create', 'update', 'delete'],
  schemas: {
    record: lazySchema(() => z.object({ ...statusRecordFields, note: z.string() })),
    create: widgetInput,
    update: lazySchema(() => widgetInput.partial()),
  },
  search: ['code', 'note'],
  sort: ['code', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  columns: [{ field: 'note', kind: 'text' }],
  form: {
    fields: [{ name: 'note', type: 'text', label: fieldLabel('widgets', 'note') }],
    schema: widgetInput,
    values: (widget) => ({ code: widget.code, note: widget.note }),
  },
});

describe('the registry', () => {
  it('lists every resource declared in resources/', async () => {
    const files = readdirSync(import.meta.dirname).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'index.ts',
    );
    const modules = await Promise.all(
      files.map(async (file) => [file, (await import(`./${file}`)) as Record<string, unknown>] as const),
    );
    expect(unregistered(modules, resources)).toEqual([]);
    expect(modules.flatMap(([, exports]) => Object.values(exports).filter(isDeclaration)).length).toBe(
      resources.length,
    );
  });

  it('names the registry file when a declaration is left out of it', () => {
    expect(unregistered([['widgets.ts', { widgetsResource: widgets }]], resources)).toEqual([
      `widgets.ts declares the resource widgets, which the registry does not list: add it to \`resources\` in ${registryFile} (and \`export * from './widgets.ts'\`)`,
    ]);
  });

  it('every registered resource names a declared permission resource and a menu place', () => {
    for (const definition of resources) {
      expect(Object.keys(permissionResources), definition.key).toContain(definition.permission);
      expect(definition.menu.order, definition.key).toBeGreaterThan(0);
    }
  });
});

describe('a forgotten or wrong part of a declaration', () => {
  it('a field named in search, sort or a column that the record lacks stops the server, naming it', () => {
    expect(() => checkResource({ ...widgets, sort: ['code', 'rating'] } as ResourceDefinition)).toThrow(
      'Resource widgets: rating is not a field of its record',
    );
  });

  it('a new permission resource without its line in the tags, or a declaration without its menu place, does not type-check', () => {
    defineResource({
      ...widgets,
      // @ts-expect-error 'Widgets' is no permission resource: add `Widgets: permissionActions` to
      // packages/contract/src/permissions/tags.ts (or reuse an existing one).
      permission: 'Widgets',
    });
    const { menu: _menu, ...withoutMenu } = widgets;
    // @ts-expect-error Property 'menu' is missing: the declaration gives its place in the web's
    // menu, `menu: { group, order }`.
    defineResource(withoutMenu);
    expect(widgets.menu).toEqual({ group: 'data', order: 990 });
  });
});
