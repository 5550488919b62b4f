/**
 * `zod` as the web build resolves it for the app (`vite.config.ts`): zod itself, configured first
 * by `./jitless.ts` — before any schema is built — and handed to the contract's stand-in
 * (`./contract-zod.ts`). Loaded with the first form, never with a page that only lists records.
 */
import './jitless.ts';

import * as zod from 'zod/v4';
import { provideZod } from './contract-zod.ts';

// The members the contract's schemas use, named once: static member reads keep the rest of zod out
// of the bundle. `contract-zod.test.ts` builds every one of them through the stand-in, and fails
// when a schema reaches for a member missing here.
provideZod({
  array: zod.array,
  boolean: zod.boolean,
  coerce: zod.coerce,
  email: zod.email,
  enum: zod.enum,
  int: zod.int,
  iso: zod.iso,
  literal: zod.literal,
  looseObject: zod.looseObject,
  number: zod.number,
  object: zod.object,
  preprocess: zod.preprocess,
  record: zod.record,
  strictObject: zod.strictObject,
  string: zod.string,
  union: zod.union,
  unknown: zod.unknown,
  url: zod.url,
  uuid: zod.uuid,
});

export * from 'zod/v4';
