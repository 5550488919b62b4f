import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { roles } from '../db/schema/index.ts';
import {
  containsPattern,
  containsWordsPattern,
  isUuid,
  namedFieldsOnly,
  sortTerm,
  typoWords,
  withinFieldPattern,
} from './queries.ts';

const dialect = new PgDialect();

describe('containsWordsPattern', () => {
  it('finds the words in their order with anything between, each literally', () => {
    expect(containsWordsPattern(['cafe'])).toBe('%cafe%');
    expect(containsWordsPattern(['مخبز', 'ذهبي'])).toBe('%مخبز%ذهبي%');
    expect(containsWordsPattern(['50%', 'a_b', 'c\\x'])).toBe('%50\\%%a\\_b%c\\\\x%');
  });
});

describe('withinFieldPattern', () => {
  it('finds the words in their order inside one field, each literally', () => {
    expect(withinFieldPattern(['مخبز', 'ذهبي'])).toBe('مخبز[^\u001f]*ذهبي');
    expect(withinFieldPattern(['a.b', '1+1', 'c'])).toBe('a\\.b[^\u001f]*1\\+1[^\u001f]*c');
  });
});

describe('typoWords', () => {
  it('lets words of five letters or more be misspelt, the longest first, the others contained', () => {
    expect(typoWords(['croisant'])).toEqual({ similar: ['croisant'], contained: [] });
    expect(typoWords(['goldn', 'bakery'])).toEqual({ similar: ['bakery', 'goldn'], contained: [] });
    expect(typoWords(['كرواسان', 'بن', '250'])).toEqual({
      similar: ['كرواسان'],
      contained: ['%بن%', '%250%'],
    });
  });
  it('has none where no word may be misspelt: short words, codes, numbers', () => {
    expect(typoWords(['احمد'])).toBeUndefined();
    expect(typoWords(['jonh', 'smth'])).toBeUndefined();
    expect(typoWords(['br-0010'])).toBeUndefined();
    expect(typoWords(['swt-knf-pc', '6221031000010', 'c_100%'])).toBeUndefined();
  });
});

describe('containsPattern', () => {
  it('wraps the term and escapes LIKE wildcards and the escape character', () => {
    expect(containsPattern('cash')).toBe('%cash%');
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\x')).toBe('%c:\\\\x%');
  });
});

describe('isUuid', () => {
  it('accepts uuids only', () => {
    expect(isUuid('00000000-0000-4000-8000-000000000000')).toBe(true);
    expect(isUuid('nope')).toBe(false);
    expect(isUuid(undefined)).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});

describe('sortTerm', () => {
  const fields = { code: roles.code, title: roles.title };
  it('ascending or descending, empty values last either way', () => {
    expect(dialect.sqlToQuery(sortTerm('code', fields)).sql).toBe('"roles"."code" asc nulls last');
    expect(dialect.sqlToQuery(sortTerm('-title', fields)).sql).toBe('"roles"."title" desc nulls last');
  });
  it('an undeclared field is a programming error', () => {
    expect(() => sortTerm('permissions', fields)).toThrow(/No column for sort field/);
  });
});

describe('namedFieldsOnly', () => {
  it('keeps the parsed values of the keys the request sent, dropping schema defaults', () => {
    expect(namedFieldsOnly({ title: 'New', permissions: [] }, { title: ' New ' })).toEqual({ title: 'New' });
    expect(namedFieldsOnly({ permissions: [] }, { permissions: [] })).toEqual({ permissions: [] });
    expect(namedFieldsOnly({ permissions: [] }, null)).toEqual({});
    expect(namedFieldsOnly({ a: 1 }, 'text')).toEqual({});
  });
});
