import { brandsResource, permissionResources, type ResourceDefinition, resources } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import signedInEn from '../i18n/locales/signed-in/texts-en.ts';
import { keysOf, missingTexts, textsFile, whereToAdd } from '../test/declared-texts.ts';

describe.each([
  ['en', keysOf(signedInEn)],
  ['ar', keysOf(signedInAr)],
] as const)('every text the registered resources imply is translated in %s', (language, keys) => {
  it.each(resources.map((definition) => [definition.key, definition] as const))('%s', (_key, definition) => {
    expect(missingTexts(definition, keys), `add them to ${whereToAdd(language)}`).toEqual([]);
  });
});

it('names what is missing: a column whose header has no text', () => {
  const keys = keysOf(signedInEn);
  const withColumn = {
    ...brandsResource,
    columns: [...(brandsResource.columns ?? []), { field: 'supplierId', kind: 'text' as const }],
  } as ResourceDefinition;
  expect(missingTexts(withColumn, keys)).toEqual([
    'resources.brands.fields.supplierId or resources.common.fields.supplierId',
  ]);
});

describe.each([
  ['en', keysOf(signedInEn)],
  ['ar', keysOf(signedInAr)],
] as const)('every permission resource has its label in %s', (language, keys) => {
  it.each(Object.keys(permissionResources))('%s', (resource) => {
    expect(
      keys.has(`permissions.resources.${resource}`),
      `add permissions.resources.${resource} to ${textsFile(language)}`,
    ).toBe(true);
  });
});
