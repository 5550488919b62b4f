import type { Locale } from './fields.ts';

/** The field types the generic form renderer knows (spec §3). */
export const formFieldTypes = [
  'select',
  'upload',
  'imageUpload',
  'radio',
  'date',
  'slider',
  'text',
  'password',
  'number',
  'time',
  'phone',
  'phoneNums',
  /** A week of opening hours: per weekday closed, or opening and closing times (not in spec §3). */
  'workingHours',
  /**
   * Several short texts typed one per line in one box (not in spec §3): the form's schema makes a
   * list of the non-blank lines (`linesOf`), and an issue of its i-th item is shown as the line's.
   */
  'lines',
] as const;

export type FormFieldType = (typeof formFieldTypes)[number];

/** One choice of a select or radio field; `label` is an i18n key (or ready text, e.g. a record's name). */
export interface FormFieldOption {
  value: string;
  label: string;
}

/**
 * Where a select's choices come from when they are not fixed: the workspace's records of another
 * resource (by key), or every country, currency or time zone, named in the user's language.
 */
export type OptionSource =
  | {
      kind: 'resource';
      resource: string;
      /**
       * The records form a tree by this field of theirs (a category's `parentId`): the choices
       * are shown under their parents, indented by depth, and the record being edited and its
       * descendants are left out (none of them can be its parent).
       */
      parentField?: string;
    }
  | { kind: 'countries' }
  | { kind: 'currencies' }
  | { kind: 'timeZones' };

/** A phone entry: what the number is (e.g. 'Mobile') and the number itself (spec §3). */
export interface PhoneEntry {
  label: string;
  number: string;
}

/** The entry a phone list starts with when it is empty (spec §9: empty strings). */
export const emptyPhoneEntry = (): PhoneEntry => ({ label: '', number: '' });

/**
 * A phone list as the form edits it: entries given as plain strings become `{ label: '', number }`,
 * and an empty list starts with one empty entry (spec §3, §4).
 */
export function normalizePhoneList(value: unknown): PhoneEntry[] {
  const list = Array.isArray(value) ? value : [];
  const entries = list.map(
    (item): PhoneEntry =>
      typeof item === 'string'
        ? { label: '', number: item }
        : { label: String(item?.label ?? ''), number: String(item?.number ?? '') },
  );
  return entries.length > 0 ? entries : [emptyPhoneEntry()];
}

/** A field of a resource form (spec §3 "Form field definition"); texts are i18n keys. */
export interface FormField {
  /** Path of the value in the form (`name`, `address.city`). */
  name: string;
  type: FormFieldType;
  label: string;
  placeholder?: string;
  /** Shows the asterisk; the rule itself lives in the resource's zod schema. */
  required?: boolean;
  /** Neither the asterisk nor the 'Optional' label. */
  disableRequiredIndicator?: boolean;
  disabled?: boolean;
  defaultValue?: unknown;
  /** select and radio. */
  options?: readonly FormFieldOption[];
  /** select: choices loaded or computed instead of `options`. */
  optionSource?: OptionSource;
  /** select: several values (an array) instead of one. */
  isMulti?: boolean;
  /**
   * select of one value among computed choices: a searchable list (a button naming the choice, a
   * search box over the choices) instead of the native select — for lists long enough that typing
   * a part of a name beats scrolling (currencies, time zones). A long multi select always is one.
   */
  searchable?: boolean;
  /** select: the text shown when there is nothing to choose. */
  noOptionsMessage?: string;
  tooltipMessage?: string;
  /** A sentence under the control saying what the field does (an i18n key), tied to it as its description. */
  hint?: string;
  className?: string;
  /** date: one day, or a range closed by its second pick. */
  mode?: 'single' | 'range';
  /** slider bounds. */
  defaultMin?: number;
  defaultMax?: number;
  /** slider and number step; 1 when absent (spec §9). */
  step?: number;
  /** upload: the accepted types (the input's `accept`); imageUpload always accepts images only. */
  accept?: string;
  /** phoneNums: entries are numbers alone (the list is plain strings), without a label input. */
  numbersOnly?: boolean;
  /**
   * text: the language the value is written in (one box of a localized name): the box has that
   * language's direction whatever the UI's, so an English name is left to right in the Arabic UI.
   */
  locale?: Locale;
  /** text: a value read left to right in every language (a code, SKU, email or URL). */
  ltr?: boolean;
  /** imageUpload: several images (a list of URLs) or one (a list of at most one). */
  multiple?: boolean;
  /**
   * Shown only when a record is created, not when one is edited: input the create takes and the
   * update does not (a variation type's first values, typed with it).
   */
  createOnly?: boolean;
}

/** Fields shown together under a label, in `columns` columns (one on narrow screens). */
export interface FormFieldGroup {
  kind: 'group';
  label: string;
  columns?: number;
  fields: readonly FormField[];
}

export type FormEntry = FormField | FormFieldGroup;

export const isFormFieldGroup = (entry: FormEntry): entry is FormFieldGroup =>
  'kind' in entry && entry.kind === 'group';

/** Every field of a form, groups opened. */
export const listFormFields = (entries: readonly FormEntry[]): FormField[] =>
  entries.flatMap((entry) => (isFormFieldGroup(entry) ? [...entry.fields] : [entry]));

/** The fields a form shows: all of them for a new record, without the `createOnly` ones for a stored one. */
export function formEntriesFor(entries: readonly FormEntry[], isNew: boolean): FormEntry[] {
  if (isNew) return [...entries];
  return entries.flatMap((entry): FormEntry[] => {
    if (!isFormFieldGroup(entry)) return entry.createOnly ? [] : [entry];
    const fields = entry.fields.filter((field) => !field.createOnly);
    return fields.length > 0 ? [{ ...entry, fields }] : [];
  });
}

/** A line of a `lines` field: its text, trimmed, and its number in the box (from 1). */
export interface TypedLine {
  number: number;
  text: string;
}

/**
 * The items of a `lines` field's text: its non-blank lines, trimmed, in order, each with its
 * number in the box, so that the i-th item's issue can name the line the member typed it on.
 */
export function linesOf(text: string): TypedLine[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line, index) => ({ number: index + 1, text: line.trim() }))
    .filter((line) => line.text !== '');
}

/** The slider's step and the number's step: 1 unless declared (spec §9). */
export const fieldStep = (field: Pick<FormField, 'step'>): number =>
  field.step && field.step > 0 ? field.step : 1;

/** The value a field starts with when neither the record nor the definition gives one. */
export function emptyFieldValue(field: FormField): unknown {
  if (field.defaultValue !== undefined) return field.defaultValue;
  switch (field.type) {
    case 'select':
      return field.isMulti ? [] : '';
    case 'imageUpload':
      return [];
    case 'phone':
      return emptyPhoneEntry();
    case 'phoneNums':
      return [emptyPhoneEntry()];
    case 'workingHours':
      // Each weekday's own default (open, no times) comes from the resource's schema.
      return {};
    case 'slider':
      return field.defaultMin ?? 0;
    case 'number':
    case 'date':
    case 'upload':
      return undefined;
    default:
      return '';
  }
}

const readPath = (values: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);

function writePath(values: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node = values;
  for (const key of keys) {
    const next = node[key];
    node = node[key] = next && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {};
  }
  node[last] = value;
}

/**
 * Starting values of a whole form: the given values, with what they lack filled from the
 * definitions (a dotted name such as `address.city` is a nested value).
 */
export function formDefaultValues(
  entries: readonly FormEntry[],
  values: Record<string, unknown> = {},
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...values };
  for (const field of listFormFields(entries)) {
    const given = readPath(values, field.name);
    const value =
      field.type === 'phoneNums'
        ? normalizePhoneList(given)
        : given === undefined
          ? emptyFieldValue(field)
          : given;
    writePath(result, field.name, value);
  }
  return result;
}
