import {
  codeAndNameColumns,
  codeAndNameFormFields,
  codeField,
  defineResource,
  fieldLabel,
  lazySchema,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  type ResourceDefinition,
  resources,
  statusRecordFields,
} from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionLabelKey } from '../features/roles/permission-matrix.tsx';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import signedInEn from '../i18n/locales/signed-in/texts-en.ts';
import { keysOf, missingTexts, textsFile, whereToAdd } from '../test/declared-texts.ts';
import { menuOf } from './navigation.ts';
import { resourceScreen } from './screens.ts';

/*
 * A simple resource is written in four places: its declaration, its registry line, its table with
 * the generated migration, its texts. This is the web's half of the proof (the contract's is
 * `packages/contract/src/resources/registry.test.ts`, the server's
 * `apps/server/test/a-resource-in-four-places.test.ts`): forgotten texts are named with the file
 * to add them to, and the screen, its guard and its menu entry follow from the declaration.
 */
const widgetInput = lazySchema(() =>
  z.object({ code: codeField, name: localizedNameField, note: z.string() }),
);
const widgets = defineResource({
  key: 'widgets',
  path: 'widgets',
  permission: 'Brands',
  menu: { group: 'data', order: 990 },
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: lazySchema(() =>
      z.object({ ...statusRecordFields, name: localizedNameRecordField, note: z.string() }),
    ),
    create: widgetInput,
    update: lazySchema(() => widgetInput.partial()),
  },
  search: ['code', 'name', 'note'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'WID',
  columns: [...codeAndNameColumns, { field: 'note', kind: 'text' }, { field: 'status', kind: 'status' }],
  form: {
    fields: [...codeAndNameFormFields, { name: 'note', type: 'text', label: fieldLabel('widgets', 'note') }],
    schema: lazySchema(() => widgetInput.extend({ name: localizedNameFormField })),
    values: (widget) => ({
      code: widget.code,
      name: localizedNameFormValues(widget.name),
      note: widget.note,
    }),
  },
}) as ResourceDefinition;

describe('a resource in four places, in the web app', () => {
  it.each([
    ['en', keysOf(signedInEn)],
    ['ar', keysOf(signedInAr)],
  ] as const)('its texts forgotten in %s are each named, with the file to add them to', (language, keys) => {
    expect(textsFile(language)).toBe(`apps/web/src/i18n/locales/signed-in/${language}.json`);
    expect(whereToAdd(language)).toContain(`packages/contract/src/texts/field-labels.${language}.json`);
    expect(missingTexts(widgets, keys)).toEqual([
      'nav.widgets',
      'resources.widgets.entity',
      'resources.widgets.one',
      'resources.widgets.empty',
      'resources.widgets.fields.note or resources.common.fields.note',
      'resources.widgets.fields.note',
    ]);
  });

  it('a new permission resource without its label stops the type check with the file to add it to', () => {
    // @ts-expect-error The key's type is the sentence "Add the label permissions.resources.Widgets
    // to apps/web/src/i18n/locales/signed-in/en.json and ar.json".
    const key: 'permissions.resources.Widgets' = 'permissions.resources.Widgets' as PermissionLabelKey<
      'Widgets' | 'Brands'
    >;
    const labelled: PermissionLabelKey<'Brands'> = 'permissions.resources.Brands';
    expect([key, labelled]).toHaveLength(2);
  });

  it('its screen and its menu entry are derived from the declaration', () => {
    expect(resourceScreen(widgets)).toMatchObject({
      path: '/widgets',
      page: 'Widgets',
      titleKey: 'widgets',
      requirement: { or: ['viewBrands'] },
    });
    const menu = menuOf([...(resources as readonly ResourceDefinition[]), widgets]);
    const data = menu.find((entry) => entry.kind === 'group' && entry.key === 'data');
    expect(data?.kind === 'group' && data.links.at(-1)).toMatchObject({
      path: '/widgets',
      labelKey: 'widgets',
      requirement: { or: ['viewBrands'] },
    });
  });
});
