import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Random } from '../helpers/seeded-random.ts';

/**
 * The fuzz's request generator: from a valid call of a route and the contract schemas of its body
 * and query, requests that break one thing (a field's type or value, the body's encoding or
 * shape, the query, the path, a header) or a few at once. Every choice comes from a seeded PRNG,
 * so a seed names a run.
 */

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** A valid call of a route and the schemas of what it sends. */
export interface BaseCall {
  method: string;
  /** The route's URL pattern, e.g. `/api/brands/:id`. */
  route: string;
  /** Path parameters of the valid call. */
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  /** `multipart`: the body is form data (uploads). */
  bodyKind: 'none' | 'json' | 'multipart';
  bodySchema?: z.ZodType;
  querySchema?: z.ZodType;
  headers?: Record<string, string>;
}

/** One generated request, ready for `app.inject`. */
interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was broken, for the failure message. */
  label: string;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** A field of a body or query: its path (`name.0.value`) and the JSON types the schema gives it. */
interface FieldInfo {
  path: (string | number)[];
  types: string[];
  enumValues?: unknown[];
}

/** Every field the schema declares, nested objects and the first item of arrays included. */
function fieldsOf(schema: z.ZodType | undefined): FieldInfo[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const fields: FieldInfo[] = [];
  const walk = (node: JsonSchema, path: (string | number)[], depth: number) => {
    if (depth > 6) return;
    const variants = [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])];
    if (path.length > 0) {
      const types = variants.flatMap((variant) => [variant.type ?? []].flat());
      const enumValues = variants.flatMap((variant) => variant.enum ?? []);
      fields.push({ path, types, ...(enumValues.length ? { enumValues } : {}) });
    }
    for (const variant of variants) {
      for (const [key, child] of Object.entries(variant.properties ?? {}))
        walk(child, [...path, key], depth + 1);
      if (variant.items) walk(variant.items, [...path, 0], depth + 1);
    }
  };
  // A bulk body is an array of records: its fields are those of the first.
  walk(json, [], 0);
  return fields;
}

const deepNested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

/** Values that break a field of any type: wrong types, edge values, hostile strings. */
const hostileValues: [string, () => unknown][] = [
  ['null', () => null],
  ['true', () => true],
  ['false', () => false],
  ['0', () => 0],
  ['-1', () => -1],
  ['0.5', () => 0.5],
  ['1e308', () => 1e308],
  ['-1e308', () => -1e308],
  ['5e-324', () => 5e-324],
  ['2^53+2', () => 2 ** 53 + 2],
  ['empty string', () => ''],
  ['spaces', () => '   '],
  ['NUL', () => '\u0000'],
  ['NUL inside', () => 'ab\u0000cd'],
  ['NUL uuid', () => `${randomUUID()}\u0000`],
  ['lone high surrogate', () => 'a\ud800b'],
  ['lone low surrogate', () => '\udfff'],
  ['control characters', () => '\u0001\u0002\u001b[31m\u007f'],
  ['bidi override', () => '\u202egnp.exe'],
  ['emoji', () => '👩🏽‍💻🇸🇦'],
  ['arabic', () => 'مرحبا بالعالم'],
  ['combining marks', () => `a${'\u0301'.repeat(500)}`],
  ['SQL', () => "' or 1=1; drop table users; --"],
  ['LIKE wildcards', () => '%_\\%'],
  ['html', () => '<script>alert(1)</script>'],
  ['path traversal', () => '../../../etc/passwd'],
  ['dot segments URL', () => '/files/../api/auth/logout'],
  ['javascript URL', () => 'javascript:alert(1)'],
  ['numeric string', () => '12345'],
  ['exponent string', () => '1e999'],
  ['NaN string', () => 'NaN'],
  ['uuid', () => randomUUID()],
  ['nil uuid', () => '00000000-0000-0000-0000-000000000000'],
  ['none', () => 'none'],
  ['invalid date', () => '2024-02-30'],
  ['far date', () => '275760-09-13'],
  ['long string 300', () => 'x'.repeat(300)],
  ['long string 10k', () => 'y'.repeat(10_000)],
  ['long string 200k', () => 'z'.repeat(200_000)],
  ['empty array', () => []],
  ['array of NUL', () => ['\u0000']],
  ['array of nulls', () => [null, null]],
  ['array of 5,000', () => Array.from({ length: 5_000 }, (_, index) => index)],
  ['array of 20,000 strings', () => Array.from({ length: 20_000 }, () => 'a')],
  ['empty object', () => ({})],
  ['object', () => ({ value: 'x', locale: 'en' })],
  ['proto object', () => JSON.parse('{"__proto__": {"polluted": true}}')],
  ['nested 200', () => deepNested(200)],
  ['nested 1,000', () => deepNested(1_000)],
];

/** Values fitting a field's declared type but outside its rules (the enum's neighbours, the case). */
function typedValues(field: FieldInfo): [string, () => unknown][] {
  const values: [string, () => unknown][] = [];
  for (const value of field.enumValues ?? []) {
    if (typeof value === 'string') {
      values.push([`enum ${value} upper`, () => value.toUpperCase()]);
      values.push([`enum ${value} padded`, () => ` ${value} `]);
      values.push([`enum ${value} with NUL`, () => `${value}\u0000`]);
    }
  }
  return values;
}

function setAt(target: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container = (
    target !== null && typeof target === 'object'
      ? Array.isArray(target)
        ? [...target]
        : { ...(target as object) }
      : typeof head === 'number'
        ? []
        : {}
  ) as Record<string | number, unknown>;
  if (rest.length === 0 && remove) {
    if (Array.isArray(container)) container.splice(head as number, 1);
    else delete container[head as string];
  } else {
    container[head as string] = setAt(container[head as string], rest, value, remove);
  }
  return container;
}

const encodeQuery = (query: Record<string, string>, raw = '') => {
  const pairs = Object.entries(query).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  if (raw) pairs.push(raw);
  return pairs.length ? `?${pairs.join('&')}` : '';
};

/** A mutable draft of a request, which mutations change. */
interface Draft {
  method: string;
  params: Record<string, string>;
  /** Raw path segments replacing a parameter's encoding (`%zz`, `..%2f`). */
  rawParams: Record<string, string>;
  query: Record<string, string>;
  rawQuery: string;
  headers: Record<string, string>;
  body: unknown;
  /** When set, sent as is instead of the JSON of `body`. */
  rawBody?: string | Buffer;
  labels: string[];
}

type Mutation = (draft: Draft, random: Random) => void;

function bodyMutations(base: BaseCall): [string, Mutation][] {
  if (base.bodyKind === 'none') return [];
  const mutations: [string, Mutation][] = [];
  if (base.bodyKind === 'json') {
    const isBulk = Array.isArray(base.body);
    const fields = fieldsOf(base.bodySchema).map((field) =>
      isBulk ? { ...field, path: [0, ...field.path] } : field,
    );
    for (const field of fields) {
      const name = field.path.join('.');
      mutations.push([
        `omit ${name}`,
        (draft) => {
          draft.body = setAt(draft.body, field.path, undefined, true);
        },
      ]);
      for (const [label, make] of [...hostileValues, ...typedValues(field)]) {
        mutations.push([
          `${name} = ${label}`,
          (draft) => {
            draft.body = setAt(draft.body, field.path, make());
          },
        ]);
      }
    }
    mutations.push(
      [
        'unknown field',
        (draft) => {
          draft.body = setAt(draft.body, ['unexpected'], 'x');
        },
      ],
      [
        'body is an array',
        (draft) => {
          draft.body = [draft.body];
        },
      ],
      [
        'body of 2,000 records',
        (draft) => {
          draft.body = Array.from({ length: 2_000 }, () => draft.body);
        },
      ],
    );
  }
  const raw = (label: string, body: string | Buffer, contentType?: string): [string, Mutation] => [
    label,
    (draft) => {
      draft.rawBody = body;
      if (contentType) draft.headers['content-type'] = contentType;
    },
  ];
  mutations.push(
    raw(
      'invalid UTF-8 in a string',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]),
    ),
    raw('invalid UTF-8 as the whole body', Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0xc0, 0xaf])),
    raw('UTF-16 JSON', Buffer.from('{"email":"a@b.co"}', 'utf16le')),
    raw('a JSON escape of NUL', '{"code":"\\u0000","name":"\\u0000","email":"\\u0000"}'),
    raw('a lone surrogate escape', '{"code":"\\ud800","name":"\\udfff","email":"\\ud800@x.co"}'),
    raw('malformed JSON', '{"a": '),
    raw('trailing garbage', '{}garbage'),
    raw('empty body', ''),
    raw('null', 'null'),
    raw('a number', '42'),
    raw('a string', '"text"'),
    raw('duplicate keys', '{"code":"a","code":{"x":1}}'),
    raw('deep nesting 100,000', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    raw('deep object nesting 20,000', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`),
    raw('2 MB body', JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) })),
    raw('text/plain', '{"a":1}', 'text/plain'),
    raw('form-urlencoded', 'a=1&b=2', 'application/x-www-form-urlencoded'),
    raw('xml', '<a>1</a>', 'application/xml'),
    raw('json with latin1 charset', '{"a":1}', 'application/json; charset=latin1'),
    raw('json with a bogus parameter', '{"a":1}', 'application/json; boundary=";;;'),
    raw('vendor json', '{"a":1}', 'application/vnd.api+json'),
    raw('multipart without a boundary', '--x\r\n', 'multipart/form-data'),
    raw('multipart with an empty boundary', '--\r\n', 'multipart/form-data; boundary='),
    raw(
      'multipart cut short',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG',
      'multipart/form-data; boundary=b',
    ),
    raw(
      'multipart with a malformed part header',
      '--b\r\nContent-Disposition\r\n\r\nx\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    ),
    raw(
      'multipart text field',
      '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    ),
    raw(
      'multipart file of another field',
      '--b\r\nContent-Disposition: form-data; name="other"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    ),
    raw(
      'multipart with a NUL file name',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    ),
    raw('no content type', '{"a":1}', ''),
  );
  return mutations;
}

function queryMutations(base: BaseCall): [string, Mutation][] {
  const mutations: [string, Mutation][] = [];
  const fields = fieldsOf(base.querySchema);
  const names = [...new Set([...Object.keys(base.query), ...fields.map((field) => String(field.path[0]))])];
  const queryValues: [string, string][] = [
    ['empty', ''],
    ['NUL', '\u0000'],
    ['NUL inside', 'a\u0000b'],
    ['long 10k', 'q'.repeat(10_000)],
    ['uuid', randomUUID()],
    ['none', 'none'],
    ['negative', '-1'],
    ['zero', '0'],
    ['float', '1.5'],
    ['huge', '1e309'],
    ['hex', '0x10'],
    ['list', 'a,b,,c'],
    ['list of none', 'none,none'],
    ['list of 100', Array.from({ length: 100 }, () => randomUUID()).join(',')],
    ['SQL', "' or 1=1 --"],
    ['LIKE wildcards', '%_\\'],
    ['arabic', 'مرحبا'],
    ['spaces', '   '],
  ];
  for (const name of names) {
    mutations.push([`query omit ${name}`, (draft) => void delete draft.query[name]]);
    for (const [label, value] of queryValues) {
      mutations.push([
        `query ${name} = ${label}`,
        (draft) => {
          draft.query[name] = value;
        },
      ]);
    }
    mutations.push(
      [
        `query ${name} invalid percent-encoding`,
        (draft) => {
          delete draft.query[name];
          draft.rawQuery = `${encodeURIComponent(name)}=%zz%`;
        },
      ],
      [
        `query ${name} invalid UTF-8`,
        (draft) => {
          delete draft.query[name];
          draft.rawQuery = `${encodeURIComponent(name)}=%ff%fe%c0%af`;
        },
      ],
      [
        `query ${name} encoded lone surrogate`,
        (draft) => {
          delete draft.query[name];
          draft.rawQuery = `${encodeURIComponent(name)}=%ed%a0%80`;
        },
      ],
      [
        `query ${name} encoded NUL`,
        (draft) => {
          delete draft.query[name];
          draft.rawQuery = `${encodeURIComponent(name)}=%00`;
        },
      ],
      [
        `query ${name} repeated`,
        (draft) => {
          draft.rawQuery = `${encodeURIComponent(name)}=${encodeURIComponent(draft.query[name] ?? 'x')}`;
        },
      ],
      [
        `query ${name} as a bracket object`,
        (draft) => {
          delete draft.query[name];
          draft.rawQuery = `${encodeURIComponent(name)}[a]=1`;
        },
      ],
    );
  }
  mutations.push(
    [
      'query unknown parameter',
      (draft) => {
        draft.query.unexpected = 'x';
      },
    ],
    [
      'query __proto__',
      (draft) => {
        draft.rawQuery = '__proto__=x&constructor[prototype][x]=1';
      },
    ],
    [
      'query of 1,000 parameters',
      (draft) => {
        draft.rawQuery = Array.from({ length: 1_000 }, (_, index) => `p${index}=${index}`).join('&');
      },
    ],
    [
      'query of 60 KB',
      (draft) => {
        draft.rawQuery = `pad=${'a'.repeat(60_000)}`;
      },
    ],
    [
      'query with a bare key',
      (draft) => {
        draft.rawQuery = 'workspaceId';
      },
    ],
  );
  return mutations;
}

function pathMutations(base: BaseCall): [string, Mutation][] {
  const mutations: [string, Mutation][] = [];
  const segments: [string, string][] = [
    ['not a uuid', 'abc'],
    ['a random uuid', randomUUID()],
    ['upper-case uuid', randomUUID().toUpperCase()],
    ['nil uuid', '00000000-0000-0000-0000-000000000000'],
    ['encoded NUL', '%00'],
    ['uuid and encoded NUL', `${randomUUID()}%00`],
    ['invalid percent-encoding', '%zz'],
    ['invalid UTF-8', '%ff%c0%af'],
    ['dot segments', '..%2f..%2fapi%2fhealth'],
    ['dot', '.'],
    ['encoded slash', 'a%2fb'],
    ['100 characters', 'p'.repeat(100)],
    ['over-long (500)', 'p'.repeat(500)],
    ['SQL', encodeURIComponent("1' or '1'='1")],
    ['arabic', encodeURIComponent('مرحبا')],
    ['none', 'none'],
  ];
  for (const name of Object.keys(base.params)) {
    for (const [label, raw] of segments) {
      mutations.push([
        `path :${name} = ${label}`,
        (draft) => {
          draft.rawParams[name] = raw;
        },
      ]);
    }
  }
  return mutations;
}

function headerMutations(): [string, Mutation][] {
  const header = (label: string, name: string, value: string): [string, Mutation] => [
    label,
    (draft) => {
      draft.headers[name] = value;
    },
  ];
  return [
    header('garbage cookie', 'cookie', 'dukkan_session=%00%zz; =; ;;'),
    header('a forged session cookie', 'cookie', `dukkan_session=${'A'.repeat(43)}`),
    header('a long cookie', 'cookie', `dukkan_session=${'B'.repeat(4_000)}`),
    header('accept-language garbage', 'accept-language', 'xx-@@@;q=abc, *;q=-1, ar-SA-u-co-invalid'),
    header('accept-language long', 'accept-language', `${'en,'.repeat(2_000)}ar`),
    header('accept-language private use', 'accept-language', 'x-klingon, i-default'),
    header('foreign origin', 'origin', 'https://evil.invalid'),
    header('null origin', 'origin', 'null'),
    header('malformed origin', 'origin', 'http://[::1'),
    header('forged forwarded-for', 'x-forwarded-for', '1.2.3.4, garbage, ::ffff:300.1.1.1'),
    header('accept-encoding odd', 'accept-encoding', 'br;q=abc, gzip;q=2, *;q=0'),
    header('content-encoding gzip', 'content-encoding', 'gzip'),
    header('a sec-fetch mix', 'sec-fetch-site', 'cross-site'),
    [
      'HEAD instead',
      (draft) => {
        draft.method = draft.method === 'GET' ? 'HEAD' : draft.method;
      },
    ],
    [
      'OPTIONS instead',
      (draft) => {
        draft.method = 'OPTIONS';
      },
    ],
    [
      'PUT instead',
      (draft) => {
        draft.method = 'PUT';
      },
    ],
  ];
}

/** All single mutations of a call: the catalogue the cases draw from. */
function mutationsOf(base: BaseCall): [string, Mutation][] {
  return [...bodyMutations(base), ...queryMutations(base), ...pathMutations(base), ...headerMutations()];
}

function render(base: BaseCall, draft: Draft): FuzzRequest {
  const path = base.route.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    name in draft.rawParams ? draft.rawParams[name]! : encodeURIComponent(draft.params[name] ?? ''),
  );
  const headers = { ...draft.headers };
  let payload: string | Buffer | undefined;
  if (draft.rawBody !== undefined) {
    payload = draft.rawBody;
    headers['content-type'] ??= 'application/json';
    if (headers['content-type'] === '') delete headers['content-type'];
  } else if (draft.body !== undefined && base.bodyKind !== 'none') {
    payload =
      typeof draft.body === 'string' || Buffer.isBuffer(draft.body) ? draft.body : JSON.stringify(draft.body);
    headers['content-type'] ??= 'application/json';
  }
  return {
    method: draft.method,
    url: `${path}${encodeQuery(draft.query, draft.rawQuery)}`,
    headers,
    payload,
    label: draft.labels.join(' + ') || 'valid call',
  };
}

/**
 * `count` requests for one call: each catalogue mutation once (in a seeded order), then random
 * combinations of two or three, until `count`. The first is the valid call itself.
 */
export function generateCases(base: BaseCall, count: number, random: Random): FuzzRequest[] {
  const catalogue = mutationsOf(base);
  const order = catalogue.map((entry) => ({ entry, key: random() })).sort((a, b) => a.key - b.key);
  const fresh = (): Draft => ({
    method: base.method,
    params: { ...base.params },
    rawParams: {},
    query: { ...base.query },
    rawQuery: '',
    headers: { ...base.headers },
    body: base.body === undefined || Buffer.isBuffer(base.body) ? base.body : structuredClone(base.body),
    labels: [],
  });
  const cases: FuzzRequest[] = [render(base, fresh())];
  for (let index = 0; cases.length < count; index++) {
    const draft = fresh();
    const chosen =
      index < order.length
        ? [order[index]!.entry]
        : Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, catalogue));
    for (const [label, mutate] of chosen) {
      draft.labels.push(label);
      mutate(draft, random);
    }
    cases.push(render(base, draft));
  }
  return cases;
}
