import { describe, expect, it } from 'vitest';
import { listFormFields } from '../resource-kit/form-fields.ts';
import { resources } from './index.ts';

/**
 * Each language's box has its own direction, whatever the UI's (issue 14: the English name was
 * right-aligned and clipped in the Arabic UI): every form of the registry declares it.
 */
describe('the direction of the boxes of every resource form', () => {
  const forms = resources.flatMap((definition) =>
    definition.form ? [{ key: definition.key, fields: listFormFields(definition.form.fields) }] : [],
  );

  it('a box per language names its language; a code is left to right', () => {
    expect(forms.length).toBeGreaterThan(5);
    for (const { key, fields } of forms) {
      for (const field of fields) {
        const language = /\.(en|ar)$/.exec(field.name)?.[1];
        if (language) expect(field.locale, `${key}: ${field.name}`).toBe(language);
        if (field.name === 'code') expect(field.ltr, `${key}: ${field.name}`).toBe(true);
      }
    }
  });
});
