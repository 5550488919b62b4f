/**
 * `zod` as the web build resolves it for the app (`vite.config.ts`): zod itself, configured first
 * by `./jitless.ts` — before any schema is built — and handed to the contract's stand-in
 * (`./contract-zod.ts`). Loaded with the first form, never with a page that only lists records.
 */
import './jitless.ts';

import {
  array,
  boolean,
  coerce,
  email,
  enum as enumOf,
  int,
  iso,
  literal,
  looseObject,
  number,
  object,
  preprocess,
  record,
  strictObject,
  string,
  union,
  unknown,
  url,
  uuid,
} from 'zod/v4';
import { provideZod } from './contract-zod.ts';

// The members the contract's schemas use; `contract-zod.test.ts` builds every one of them through
// the stand-in, and fails when a schema reaches for a member missing here.
provideZod({
  array,
  boolean,
  coerce,
  email,
  enum: enumOf,
  int,
  iso,
  literal,
  looseObject,
  number,
  object,
  preprocess,
  record,
  strictObject,
  string,
  union,
  unknown,
  url,
  uuid,
});

export * from 'zod/v4';
