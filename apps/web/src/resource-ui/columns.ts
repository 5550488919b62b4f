import type { ReactNode } from 'react';

/**
 * A column of a list page. Pages declare a small typed array of these; the next milestone may
 * declare them in the contract and map them onto this shape.
 */
export interface ResourceColumn<R> {
  key: string;
  /** Translated header text. */
  header: string;
  /** One of the definition's sort fields: the header becomes a sort button. */
  sortField?: string;
  cell: (record: R) => ReactNode;
  /** The column that names the row: rendered as the row's header cell for screen readers. */
  primary?: boolean;
  /**
   * The record's status (a badge): on a narrow screen it stays beside the name. Without the flag,
   * a column keyed `status` is taken as it.
   */
  status?: boolean;
  className?: string;
}

/** A declared filter as the page offers it: its label and the values to pick from. */
export interface ListFilterControl {
  field: string;
  label: string;
  options: { value: string; label: string }[];
  /** A reference filter: its options are this resource's records (loaded when the menu is shown). */
  resource?: string;
}

/** An action on one row, shown as an icon button only when the user may use it. */
export interface RowAction {
  key: string;
  /** Short visible label (tooltip) and, with the record's name, the accessible name. */
  label: string;
  icon: ReactNode;
  onSelect: () => void;
  tone?: 'danger';
}
