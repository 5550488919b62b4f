import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.ts';
import { listQuerySchema } from './resource-kit/list-query.ts';
import { resources } from './resources/index.ts';
import { validationCodes } from './validation-codes.ts';
import { workspaceSettingsForm } from './workspaces/workspace-settings.ts';

/*
 * Every limit of every input schema of the contract — a length, a size, a number's bounds, an
 * integer, a format, a set of allowed values — refuses with one of the contract's codes, never
 * with zod's English text: the server returns the message as it is and the web translates codes.
 * The schemas are walked as zod builds them, so a limit added later is checked without a test.
 */

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string; checks?: Schema[] };
const defOf = (schema: Schema) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The contract's input schemas by name: what the server parses requests and forms parse values with. */
function inputSchemas(): [string, Schema][] {
  const named: [string, Schema][] = [];
  for (const resource of resources) {
    named.push([`${resource.key}.create`, resource.schemas.create]);
    named.push([`${resource.key}.update`, resource.schemas.update]);
    if ('form' in resource && resource.form) named.push([`${resource.key}.form`, resource.form.schema]);
    named.push(['listQuery', listQuerySchema(resource)]);
  }
  named.push(['workspaceSettingsForm', workspaceSettingsForm.schema]);
  for (const [name, value] of Object.entries(contract)) {
    if (/(Input|Form)Schema$/.test(name)) named.push([name, value as Schema]);
  }
  return named;
}

/** One limit: the schema that holds it, the schema a value meets it through, and values that break it. */
interface Limit {
  where: string;
  what: string;
  /** What is parsed: the limit's own schema, or the union it is an option of. */
  target: Schema;
  /** A union answers for its options: a value none takes gets the union's issue instead of `issue`. */
  inUnion: boolean;
  /** Values that break the limit; the first that makes zod report `issue` (at `bound`) is used. */
  values: unknown[];
  /** The zod issue code breaking it raises, and for a bound, the bound it names. */
  issue: string;
  bound?: number;
}

const repeat = (item: unknown, count: number) => Array.from({ length: count }, () => item);

/** Values of a schema's kind (string, array…) of a given length. */
function ofLength(type: string, length: number): unknown[] {
  if (type === 'array') return [repeat(undefined, length), repeat('', length), repeat({}, length)];
  return ['a', '1', 'A', '0'].map((character) => character.repeat(length));
}

/** Strings that fail most formats and patterns, tried in turn. */
const malformed = ['', ' ', '!', 'x', '0', '-', 'é', 'a'.repeat(300)];

/**
 * The limits a schema holds itself. A refinement (`refine`, `superRefine`) is left out: no value
 * breaks every one, and its message is written where it is.
 */
function limitsOf(schema: Schema, where: string, union: Schema | undefined): Limit[] {
  const def = defOf(schema);
  const found: Limit[] = [];
  const add = (what: string, issue: string, values: unknown[], bound?: number) =>
    found.push({ where, what, target: union ?? schema, inUnion: union !== undefined, values, issue, bound });
  // A string format schema (z.uuid(), z.email(), z.iso.date()) is its own check.
  if (def.type === 'string' && typeof def.format === 'string')
    add(`format ${def.format}`, 'invalid_format', malformed);
  if (def.type === 'enum') add('one of its options', 'invalid_value', ['\u0001not-an-option']);
  if (def.type === 'literal') add('its literal', 'invalid_value', ['\u0001not-the-literal']);
  if (def.type === 'number' && typeof def.format === 'string') {
    add(`format ${def.format}`, 'invalid_type', [0.5]);
  }
  for (const check of def.checks ?? []) {
    const c = defOf(check);
    switch (c.check) {
      case 'min_length':
        if (Number(c.minimum) > 0) {
          const minimum = Number(c.minimum);
          add(`at least ${minimum}`, 'too_small', ofLength(def.type, minimum - 1), minimum);
        }
        break;
      case 'max_length': {
        const maximum = Number(c.maximum);
        add(`at most ${maximum}`, 'too_big', ofLength(def.type, maximum + 1), maximum);
        break;
      }
      case 'length_equals':
        add(`exactly ${c.length}`, 'too_big', ofLength(def.type, Number(c.length) + 1), Number(c.length));
        break;
      case 'greater_than': {
        const value = Number(c.value);
        add(
          `${c.inclusive ? '>=' : '>'} ${value}`,
          'too_small',
          c.inclusive ? [value - 1, value / 2] : [value],
          value,
        );
        break;
      }
      case 'less_than': {
        const value = Number(c.value);
        add(
          `${c.inclusive ? '<=' : '<'} ${value}`,
          'too_big',
          c.inclusive ? [value + 1, value * 2] : [value],
          value,
        );
        break;
      }
      case 'number_format':
        add(`format ${c.format}`, 'invalid_type', [0.5]);
        break;
      case 'multiple_of':
        add(`a multiple of ${c.value}`, 'not_multiple_of', [Number(c.value) / 2]);
        break;
      case 'string_format':
        add(`format ${c.format}`, 'invalid_format', malformed);
        break;
    }
  }
  return found;
}

/** Every limit below a schema, once per schema (a field shared by many inputs is walked once). */
function walk(schema: Schema, where: string, seen: Set<Schema>, union?: Schema): Limit[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const below = (child: unknown, path: string, inUnion = union) => walk(child as Schema, path, seen, inUnion);
  const limits = limitsOf(schema, where, union);
  switch (def.type) {
    case 'object': {
      for (const [key, field] of Object.entries(def.shape as Record<string, Schema>))
        limits.push(...below(field, `${where}.${key}`, undefined));
      if (def.catchall) limits.push(...below(def.catchall, `${where}.*`, undefined));
      break;
    }
    case 'array':
      limits.push(...below(def.element, `${where}[]`, undefined));
      break;
    case 'union':
      for (const option of def.options as Schema[]) limits.push(...below(option, where, union ?? schema));
      break;
    case 'pipe':
      limits.push(...below(def.in, where), ...below(def.out, where, undefined));
      break;
    case 'lazy':
      limits.push(...below((def.getter as () => Schema)(), where));
      break;
    case 'record':
      limits.push(
        ...below(def.keyType, `${where}{key}`, undefined),
        ...below(def.valueType, `${where}{}`, undefined),
      );
      break;
    case 'tuple':
      (def.items as Schema[]).forEach((item, index) => {
        limits.push(...below(item, `${where}[${index}]`, undefined));
      });
      break;
    case 'intersection':
      limits.push(...below(def.left, where), ...below(def.right, where));
      break;
    default:
      if (def.innerType) limits.push(...below(def.innerType, where));
  }
  return limits;
}

const codes = new Set<string>(Object.keys(validationCodes));

function allLimits(): Limit[] {
  const seen = new Set<Schema>();
  const byName = new Map<string, Limit>();
  // The list query is built per resource: one of each of its limits is enough.
  for (const limit of inputSchemas().flatMap(([name, schema]) => walk(schema, name, seen)))
    if (!byName.has(`${limit.where}: ${limit.what}`)) byName.set(`${limit.where}: ${limit.what}`, limit);
  return [...byName.values()];
}

describe("the contract's input schemas", () => {
  const limits = allLimits();

  it('have limits to check (the walk reaches them)', () => {
    expect(limits.length).toBeGreaterThan(50);
  });

  it.each(limits.map((limit) => [`${limit.where}: ${limit.what}`, limit] as const))(
    '%s refuses with a validation code',
    (_name, limit) => {
      const results = limit.values.map((value) => (limit.target as z.ZodType).safeParse(value));
      const breaks = (issue: z.core.$ZodIssue) =>
        issue.code === limit.issue &&
        (limit.bound === undefined ||
          Number('minimum' in issue ? issue.minimum : 'maximum' in issue ? issue.maximum : NaN) ===
            limit.bound);
      const result =
        results.find((parsed) => parsed.error?.issues.some(breaks)) ??
        (limit.inUnion ? results.find((parsed) => !parsed.success) : undefined);
      expect(result, 'a value that breaks the limit').toBeDefined();
      const messages = result?.error?.issues.map((issue) => issue.message) ?? [];
      expect(messages.filter((message) => !codes.has(message))).toEqual([]);
    },
  );
});
