import { numberFormat } from '@dukkan/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useMessageText } from '../../lib/message-text.ts';

/**
 * zod's own messages (those a schema does not set itself) become `form:<key>?<params>` codes, so
 * the text is chosen at render time in the current language (spec §5's generic messages).
 */
const prefix = 'form:';

const encode = (key: string, params: Record<string, string | number> = {}) => {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
  const text = query.toString();
  return `${prefix}${key}${text ? `?${text}` : ''}`;
};

/** The kind of a received value, named as zod 3's messages named it. */
function typeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (input instanceof Date) return 'date';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

const isEmpty = (input: unknown) =>
  input === undefined || input === null || input === '' || (typeof input === 'number' && Number.isNaN(input));

/** The per-parse error map the form's resolver uses; a schema's own message always wins. */
export const formErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (isEmpty(issue.input)) return encode('required');
      return encode('invalidType', { expected: issue.expected, received: typeOf(issue.input) });
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string')
        return issue.input === '' ? encode('required') : encode('stringTooShort', { n });
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return encode(issue.inclusive === false ? 'numberGreaterThan' : 'numberAtLeast', { n });
      if (issue.origin === 'array' || issue.origin === 'set') return encode('arrayTooShort', { n });
      return encode('rangeUnderflow');
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return encode('stringTooLong', { n });
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return encode(issue.inclusive === false ? 'numberLessThan' : 'numberAtMost', { n });
      if (issue.origin === 'array' || issue.origin === 'set') return encode('arrayTooLong', { n });
      return encode('rangeOverflow');
    }
    case 'invalid_format':
      return encode(issue.format === 'email' ? 'invalidEmail' : 'patternMismatch');
    case 'not_multiple_of':
      return encode('stepMismatch');
    default:
      return encode('badInput');
  }
};

/** A native input's failed constraint as the spec's form message (spec §5), or null when valid. */
export function validityMessage(validity: ValidityState): string | null {
  const order = [
    'valueMissing',
    'typeMismatch',
    'badInput',
    'patternMismatch',
    'tooLong',
    'tooShort',
    'rangeOverflow',
    'rangeUnderflow',
    'stepMismatch',
  ] as const;
  const failed = order.find((name) => validity[name]);
  return failed ? encode(failed) : validity.valid ? null : encode('badInput');
}

/** Text of a form message: a `form:` code, a validation code (`validation.<CODE>`), or ready text. */
export function useFormMessageText() {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message: string) => {
      if (!message.startsWith(prefix)) return messageText(message);
      const [key = '', query = ''] = message.slice(prefix.length).split('?');
      const params: Record<string, string> = Object.fromEntries(new URLSearchParams(query));
      if (params.n) params.n = numberFormat(i18n.language).format(Number(params.n));
      if (params.expected)
        params.expected = t(`form.types.${params.expected}`, { defaultValue: params.expected });
      if (params.received)
        params.received = t(`form.types.${params.received}`, { defaultValue: params.received });
      return t(`form.messages.${key}`, { ...params, defaultValue: t('form.messages.badInput') });
    },
    [t, i18n, messageText],
  );
}
