import { describe, expect, it } from 'vitest';
import {
  emptyFieldValue,
  type FormEntry,
  fieldStep,
  formDefaultValues,
  isFormFieldGroup,
  listFormFields,
  normalizePhoneList,
} from './form-fields.ts';

const entries: FormEntry[] = [
  { name: 'code', type: 'text', label: 'code' },
  {
    kind: 'group',
    label: 'contact',
    columns: 2,
    fields: [
      { name: 'phones', type: 'phoneNums', label: 'phones' },
      { name: 'tags', type: 'select', isMulti: true, label: 'tags' },
    ],
  },
  { name: 'rate', type: 'slider', label: 'rate', defaultMin: 5, defaultMax: 10 },
];

describe('form fields', () => {
  it('opens groups', () => {
    expect(isFormFieldGroup(entries[1] as FormEntry)).toBe(true);
    expect(listFormFields(entries).map((field) => field.name)).toEqual(['code', 'phones', 'tags', 'rate']);
  });

  it('steps by 1 unless a positive step is declared', () => {
    expect(fieldStep({})).toBe(1);
    expect(fieldStep({ step: 0 })).toBe(1);
    expect(fieldStep({ step: 0.5 })).toBe(0.5);
  });

  it('starts a phone list with one empty entry and reads plain strings as numbers', () => {
    expect(normalizePhoneList(undefined)).toEqual([{ label: '', number: '' }]);
    expect(normalizePhoneList([])).toEqual([{ label: '', number: '' }]);
    expect(normalizePhoneList(['0100', { label: 'Home', number: '02' }])).toEqual([
      { label: '', number: '0100' },
      { label: 'Home', number: '02' },
    ]);
  });

  it('fills the values a record lacks from the definitions, keeping the others', () => {
    expect(formDefaultValues(entries, { code: 'B1', extra: 1, phones: [] })).toEqual({
      code: 'B1',
      extra: 1,
      phones: [{ label: '', number: '' }],
      tags: [],
      rate: 5,
    });
    expect(emptyFieldValue({ name: 'x', type: 'text', label: 'x', defaultValue: 'd' })).toBe('d');
    const nested: FormEntry[] = [
      { name: 'address.city', type: 'text', label: 'city' },
      { name: 'address.street', type: 'text', label: 'street' },
    ];
    expect(formDefaultValues(nested, { address: { city: 'Cairo' } })).toEqual({
      address: { city: 'Cairo', street: '' },
    });
    expect(emptyFieldValue({ name: 'x', type: 'imageUpload', label: 'x' })).toEqual([]);
  });
});
