import { importMappingCodes } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import {
  appliedMapping,
  type MappingRules,
  mappedColumn,
  mappingIssues,
  parseMappingField,
  proposedMapping,
  rememberedChoices,
} from './import-mapping.ts';

/** A customers-like list: a code (the key), a name in two languages (a create needs one), an email. */
const names: Record<string, string> = {
  code: 'code',
  'name (english)': 'name.en',
  'name (arabic)': 'name.ar',
  email: 'email',
  orders: '',
};
const rules: MappingRules = {
  targets: [
    { key: 'code', label: 'Code', required: false },
    { key: 'name.en', label: 'Name (English)', required: false },
    { key: 'name.ar', label: 'Name (Arabic)', required: false },
    { key: 'email', label: 'Email', required: false },
  ],
  // A computed column (orders) is matched and not written: null.
  match: (header) => {
    const key = names[header.toLowerCase()];
    return key === undefined ? undefined : key === '' ? null : key;
  },
  keyTarget: 'code',
  required: [{ label: 'Name', keys: ['name.en', 'name.ar'] }],
};

describe('the column mapping of an import', () => {
  it('proposes the match by name, null for a column not written, and one header per column', () => {
    expect(proposedMapping(['Code', 'Email', 'Orders', 'Mail', '', 'email'], rules.match)).toEqual({
      Code: 'code',
      Email: 'email',
      Orders: null,
      Mail: null,
      // The second header of one column is proposed as not imported.
      email: null,
    });
  });

  it('proposes the remembered choices first for the headers they name, the match by name for the rest', () => {
    const remembered = { Ref: 'code', Email: null, 'Customer name': 'name.ar', 'Old header': 'name.en' };
    expect(
      proposedMapping(['Ref', 'Code', 'Email', 'Customer name', 'Name (English)'], rules.match, remembered),
    ).toEqual({
      Ref: 'code',
      // The column a remembered header fills is taken: the header its name matches is not imported.
      Code: null,
      Email: null,
      'Customer name': 'name.ar',
      'Name (English)': 'name.en',
    });
  });

  it('remembers the column each header filled, by the mapping or by name', () => {
    expect(
      appliedMapping(['Ref', 'Email', 'Notes', '', 'Ref'], { Ref: 'code', Gone: 'email' }, rules.match),
    ).toEqual({
      Ref: 'code',
      Email: 'email',
      Notes: null,
    });
  });

  it('forgets a remembered choice of a column the list no longer has', () => {
    expect(
      rememberedChoices({ Ref: 'code', Size: 'expansion.type:gone', Notes: null }, rules.targets),
    ).toEqual({
      Ref: 'code',
      Notes: null,
    });
  });

  it('takes the mapping before the name, and the name where the mapping says nothing', () => {
    const mapping = { 'Customer name': 'name.en', Email: null };
    expect(mappedColumn('Customer name', mapping, rules.match)).toBe('name.en');
    expect(mappedColumn('Email', mapping, rules.match)).toBeNull();
    expect(mappedColumn('Code', mapping, rules.match)).toBe('code');
    expect(mappedColumn('Phone', mapping, rules.match)).toBeUndefined();
  });

  it('holds a mapping of renamed headers to the list’s columns', () => {
    expect(
      mappingIssues(
        ['Ref', 'Customer name', 'Notes'],
        { Ref: 'code', 'Customer name': 'name.ar', Notes: null },
        rules,
      ),
    ).toEqual([]);
  });

  it('refuses a column the list does not have, naming the header', () => {
    expect(mappingIssues(['Code', 'Fax'], { Fax: 'fax' }, rules)).toEqual([
      {
        path: 'mapping',
        message: importMappingCodes.IMPORT_MAPPING_UNKNOWN_COLUMN,
        params: { header: 'Fax' },
      },
    ]);
  });

  it('refuses one column chosen for two headers, mapped or matched by name', () => {
    expect(mappingIssues(['Code', 'Ref'], { Ref: 'code' }, rules)).toEqual([
      {
        path: 'mapping',
        message: importMappingCodes.IMPORT_MAPPING_COLUMN_TWICE,
        params: { column: 'Code' },
      },
    ]);
  });

  it('needs what a create needs only when no header fills the key column', () => {
    expect(mappingIssues(['Email'], {}, rules)).toEqual([
      {
        path: 'mapping',
        message: importMappingCodes.IMPORT_MAPPING_COLUMN_REQUIRED,
        params: { column: 'Name' },
      },
    ]);
    // Either language of a localized text fills it.
    expect(mappingIssues(['Email', 'Arabic'], { Arabic: 'name.ar' }, rules)).toEqual([]);
    // With the code, rows may update: a create without a name is refused row by row by the run.
    expect(mappingIssues(['Code', 'Email'], {}, rules)).toEqual([]);
  });

  it('reads the mapping field as JSON of header → column or null, and refuses anything else', () => {
    expect(parseMappingField('{"Ref":"code","Notes":null}')).toEqual({ Ref: 'code', Notes: null });
    for (const text of [
      '',
      'not json',
      '[]',
      '{"Ref":3}',
      '"code"',
      JSON.stringify({ Ref: 'x'.repeat(256) }),
    ])
      expect(() => parseMappingField(text), text).toThrow(
        expect.objectContaining({
          details: expect.objectContaining({
            issues: [{ path: 'mapping', message: importMappingCodes.IMPORT_MAPPING_INVALID }],
          }),
        }),
      );
  });
});
