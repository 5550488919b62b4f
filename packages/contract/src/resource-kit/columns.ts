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
  'enum',
  'country',
  'currency',
  'currencies',
  'reference',
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
}
