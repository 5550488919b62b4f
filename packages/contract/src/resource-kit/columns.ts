import type { z } from 'zod';

/**
 * How a list shows a field. The web maps each kind to one cell renderer; the header is the
 * resource's `resources.<key>.fields.<field>` text.
 */
export const columnKinds = [
  'code',
  'text',
  'localizedText',
  'date',
  'number',
  'percent',
  'money',
  'enum',
  'country',
  'currency',
  'currencies',
  'reference',
  'phone',
  'phones',
  'workingDays',
  'status',
  'image',
] as const;
export type ColumnKind = (typeof columnKinds)[number];

/** A column of a resource's list, declared with the resource. */
export interface ColumnDefinition {
  field: string;
  kind: ColumnKind;
  /** The column naming the row (the row's header cell for screen readers, the record's label). */
  primary?: boolean;
  /** reference: the key of the referenced resource, whose records' names are shown. */
  reference?: string;
  /**
   * money: the field of the same record holding the amount's ISO 4217 currency code; without one,
   * the amount is in the workspace's base currency. The amount is an integer of that currency's
   * minor units (piastres, cents).
   */
  currencyField?: string;
  /** money: the field holding the upper end of a range the column shows ('EGP 120.00 – 180.00'). */
  rangeTo?: string;
}

/** The zod type underneath optional, nullable, default and pipe wrappers. */
function innerType(schema: z.ZodType): z.ZodType {
  let current = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; out?: z.ZodType } };
  for (let depth = 0; depth < 10; depth++) {
    const { def } = current;
    const next = def.innerType ?? (def.type === 'pipe' ? def.out : undefined);
    if (!next) break;
    current = next as typeof current;
  }
  return current;
}

/** The record value each column kind shows: a text, a number, or a list. */
const kindShapes: Record<ColumnKind, 'text' | 'number' | 'list'> = {
  code: 'text',
  text: 'text',
  localizedText: 'list',
  date: 'text',
  number: 'number',
  percent: 'number',
  money: 'number',
  enum: 'text',
  country: 'text',
  currency: 'text',
  currencies: 'list',
  reference: 'text',
  phone: 'text',
  phones: 'list',
  workingDays: 'list',
  status: 'text',
  image: 'text',
};
const zodTypes = { text: ['string', 'enum', 'literal'], number: ['number', 'int'], list: ['array'] };

/** Whether a column of this kind can show the field's value: `phones` an array, `number` a number. */
export function columnFitsField(kind: ColumnKind, field: z.ZodType): boolean {
  return zodTypes[kindShapes[kind]].includes(innerType(field).def.type);
}
