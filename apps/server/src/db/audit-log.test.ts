import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AuditFieldRules, changedFields, redacted } from './audit-log.ts';

describe('changedFields of a create or a delete', () => {
  const field = fc.constantFrom('code', 'name', 'status', 'secret', 'createdAt', 'currencies');
  const value = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.date({ noInvalidDate: true }),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
  );
  const state = fc.dictionary(field, value);
  const rules = fc
    .tuple(fc.subarray(['createdAt', 'status']), fc.subarray(['secret', 'code']))
    .map(([skipped, secret]): AuditFieldRules => ({ skipped: new Set(skipped), secret: new Set(secret) }));

  // The one state against an empty one: every field it holds compared with an absent value.
  it('lists what an update from nothing, or to nothing, would list', () => {
    fc.assert(
      fc.property(state, rules, (record, rule) => {
        expect(changedFields(null, record, rule)).toEqual(changedFields({}, record, rule));
        expect(changedFields(record, null, rule)).toEqual(changedFields(record, {}, rule));
      }),
    );
  });

  it('holds each field but the skipped and the null ones, a secret redacted, a date as text', () => {
    const at = new Date('2026-12-01T00:00:00.000Z');
    const rule: AuditFieldRules = { skipped: new Set(['createdAt']), secret: new Set(['secret']) };
    const record = { code: 'BR-1', name: null, secret: 'hash', createdAt: at, openedAt: at, tags: [] };
    expect(changedFields(null, record, rule)).toEqual({
      code: [null, 'BR-1'],
      secret: [null, redacted],
      openedAt: [null, '2026-12-01T00:00:00.000Z'],
      tags: [null, []],
    });
    expect(changedFields(record, null, rule)).toEqual({
      code: ['BR-1', null],
      secret: [redacted, null],
      openedAt: ['2026-12-01T00:00:00.000Z', null],
      tags: [[], null],
    });
    expect(changedFields(null, { name: null, createdAt: at }, rule)).toBeNull();
    expect(changedFields(null, null, rule)).toBeNull();
  });
});
