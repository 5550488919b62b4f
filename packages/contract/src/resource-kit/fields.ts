import { z } from 'zod';
import { validationCodes as codes } from '../validation-codes.ts';

/** Field rules of the catalogue (spec §5): codes and titles under 60, descriptions under 255. */
export const codeField = z
  .string({ error: codes.CODE_IS_REQUIRED })
  .trim()
  .min(1, codes.CODE_IS_REQUIRED)
  .max(60, codes.CODE_TOO_LONG);

export const titleField = z
  .string({ error: codes.TITLE_IS_REQUIRED })
  .trim()
  .min(1, codes.TITLE_IS_REQUIRED)
  .max(60, codes.TITLE_TOO_LONG);

export const idField = z.uuid();
export const timestampField = z.string();
export const recordStatusField = z.enum(['active', 'inactive']);
export const statusInputSchema = z.strictObject({ status: recordStatusField });
