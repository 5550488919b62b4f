import { z } from 'zod';
import { validationCodes as codes } from './validation-codes.ts';

/** Whether a text holds U+0000, which PostgreSQL's `text` cannot store or compare. */
const hasNulCharacter = (value: string): boolean => value.includes('\u0000');

/**
 * The string every text field of the contract starts from: a value holding U+0000 is refused
 * with `TEXT_IS_INVALID` before any other rule (PostgreSQL refuses it: it would otherwise fail
 * the query). `error` is the field's message for a value that is not a string.
 */
export const textField = (error?: string) =>
  z
    .string(error === undefined ? undefined : { error })
    .refine((value) => !hasNulCharacter(value), { message: codes.TEXT_IS_INVALID, abort: true });
