import { minorUnitDigits } from '../domain/money.ts';
import { type Weekday, type WorkingDay, weekdays } from '../resources/locations.ts';

/*
 * How a record's values are written to a spreadsheet cell (CSV or XLSX) and read back: the one
 * place the export writes its cells from and the import reads them with. Each kind is a pair,
 * `format` and `parse`, and `parse(format(value))` gives the value back (the property tests keep
 * it so), so a file exported and imported unchanged changes nothing.
 *
 * - text: the text; empty is none.
 * - number: a number cell.
 * - money: an amount of minor units written as the decimal amount of its currency (12345 EGP
 *   piastres → 123.45); a CSV writes it with the currency's digits.
 * - boolean: `true` or `false`.
 * - date: the ISO text (`2026-03-01`, or `2026-03-01T08:00:00.000Z` for a moment).
 * - list (phones, tag codes, currencies): the items joined by `, `; a comma or backslash inside
 *   an item is written `\,` or `\\`.
 * - labelledPhones (a location's `{ label, number }` phones): a list whose items are
 *   `<label>: <number>` (`Front desk: +20223456789`); a number holds no colon, so the last one
 *   ends the label, which may hold colons of its own.
 * - workingHours: the days joined by `; `, each `<weekday> HH:MM-HH:MM` or `<weekday> closed`,
 *   the weekday in English whatever the reader's language (`monday 09:00-17:00; friday closed`);
 *   a closing time before the opening one is on the next day, `24:00` the end of the day, and
 *   a time with seconds is `HH:MM:SS`.
 *
 * A text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula
 * by a spreadsheet (OWASP's CSV injection): it is written after a single quote (`'+201001234567`),
 * and so is a text that starts with a quote itself, so that reading drops exactly one quote.
 */

/** A location's phone as its cell item holds it. */
export interface LabelledPhone {
  label: string;
  number: string;
}

/** What a cell holds: a text, a number, or nothing. */
export type CellValue = string | number | null;

export const cellKinds = [
  'text',
  'number',
  'money',
  'boolean',
  'date',
  'list',
  'labelledPhones',
  'workingHours',
] as const;
export type CellKind = (typeof cellKinds)[number];

/** What a cell of a kind needs beyond its value: a money cell's currency. */
export interface CellOptions {
  currency?: string;
}

const formulaStarts = new Set(['=', '+', '-', '@', '\t', '\r']);

/** A text as a spreadsheet must not run it: after a quote when it starts like a formula (or with a quote). */
export function protectText(text: string): string {
  const first = text[0];
  return first !== undefined && (formulaStarts.has(first) || first === "'") ? `'${text}` : text;
}

/** The text `protectText` was given. */
export function unprotectText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}

const textOf = (cell: CellValue): string | null => {
  if (cell === null) return null;
  const text = typeof cell === 'number' ? String(cell) : unprotectText(cell);
  return text === '' ? null : text;
};

const protectedOrNone = (text: string | null): CellValue =>
  text === null || text === '' ? null : protectText(text);

/** Items joined by `, `, a comma or backslash inside one escaped with a backslash. */
function joinItems(items: readonly string[]): string {
  return items.map((item) => item.replace(/[\\,]/g, (char) => `\\${char}`)).join(', ');
}

function splitItems(text: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
    } else if (char === ',') {
      items.push(current);
      current = '';
      // The space `joinItems` writes after each comma.
      if (text[index + 1] === ' ') index++;
    } else current += char;
  }
  items.push(current);
  return items;
}

/** Seconds since midnight → `HH:MM` (or `HH:MM:SS`); 86,400 is `24:00`. */
function clockTime(seconds: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${pad(hours)}:${pad(minutes)}${rest === 0 ? '' : `:${pad(rest)}`}`;
}

function clockSeconds(time: string): number {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  if (!match) throw new CellFormatError('workingHours', time);
  const [hours, minutes, seconds = '0'] = match.slice(1).map((part) => part ?? '0') as [
    string,
    string,
    string,
  ];
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** A cell whose text its kind cannot read (the import reports it as the cell's error). */
export class CellFormatError extends Error {
  constructor(
    readonly kind: CellKind,
    readonly text: string,
  ) {
    super(`Not a ${kind} cell: ${text}`);
  }
}

/** Reads a decimal amount as minor units exactly (no float rounding of `123.45`). */
function minorUnits(cell: string | number, currency: string): number {
  const digits = minorUnitDigits(currency);
  if (typeof cell === 'number') return Math.round(cell * 10 ** digits);
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(cell.trim());
  if (!match) throw new CellFormatError('money', cell);
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string?];
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits)))
    throw new CellFormatError('money', cell);
  const minor = Number(whole + fraction.slice(0, digits).padEnd(digits, '0'));
  return sign === '-' && minor !== 0 ? -minor : minor;
}

interface CellFormat<T> {
  format(value: T | null | undefined, options: CellOptions): CellValue;
  parse(cell: CellValue, options: CellOptions): T | null;
}

const currencyOf = (options: CellOptions) => {
  if (!options.currency) throw new Error('A money cell needs its currency');
  return options.currency;
};

/** Each kind's writing and reading of a cell (see the comment at the top of this module). */
export const cellFormats: {
  text: CellFormat<string>;
  number: CellFormat<number>;
  money: CellFormat<number>;
  boolean: CellFormat<boolean>;
  date: CellFormat<string>;
  list: CellFormat<string[]>;
  labelledPhones: CellFormat<LabelledPhone[]>;
  workingHours: CellFormat<WorkingDay[]>;
} = {
  text: {
    format: (value) => protectedOrNone(value ?? null),
    parse: textOf,
  },
  number: {
    format: (value) => value ?? null,
    parse(cell) {
      const text = typeof cell === 'number' ? cell : textOf(cell);
      if (text === null) return null;
      const number = Number(text);
      if (typeof text === 'string' && (text.trim() === '' || !Number.isFinite(number)))
        throw new CellFormatError('number', text);
      return number;
    },
  },
  money: {
    format(value, options) {
      if (value === null || value === undefined) return null;
      return value / 10 ** minorUnitDigits(currencyOf(options));
    },
    parse(cell, options) {
      const value = typeof cell === 'number' ? cell : textOf(cell);
      return value === null ? null : minorUnits(value, currencyOf(options));
    },
  },
  boolean: {
    format: (value) => (value === null || value === undefined ? null : String(value)),
    parse(cell) {
      const text = textOf(cell)?.trim().toLowerCase() ?? null;
      if (text === null) return null;
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw new CellFormatError('boolean', text);
    },
  },
  date: {
    format: (value) => value ?? null,
    parse: (cell) => textOf(cell)?.trim() ?? null,
  },
  list: {
    format: (value) => (value && value.length > 0 ? protectText(joinItems(value)) : null),
    parse(cell) {
      const text = textOf(cell);
      return text === null ? [] : splitItems(text);
    },
  },
  labelledPhones: {
    format: (value) =>
      value && value.length > 0
        ? protectText(joinItems(value.map((phone) => `${phone.label}: ${phone.number}`)))
        : null,
    parse(cell) {
      const text = textOf(cell);
      if (text === null) return [];
      return splitItems(text).map((item) => {
        const colon = item.lastIndexOf(':');
        // No label: the label's own rule (required) names the cell, as the form would.
        return colon < 0
          ? { label: '', number: item.trim() }
          : { label: item.slice(0, colon).trim(), number: item.slice(colon + 1).trim() };
      });
    },
  },
  workingHours: {
    format(value) {
      if (!value || value.length === 0) return null;
      return value
        .map((day) =>
          day.closed || day.opensAt === undefined || day.closesAt === undefined
            ? `${day.day} closed`
            : `${day.day} ${clockTime(day.opensAt)}-${clockTime(day.closesAt)}`,
        )
        .join('; ');
    },
    parse(cell) {
      const text = textOf(cell);
      if (text === null) return [];
      return text.split(';').map((part): WorkingDay => {
        const [day = '', hours = ''] = part.trim().split(/\s+/, 2);
        const weekday = day.toLowerCase() as Weekday;
        if (!weekdays.includes(weekday)) throw new CellFormatError('workingHours', part);
        if (hours.toLowerCase() === 'closed') return { day: weekday, closed: true };
        const [opens, closes, extra] = hours.split('-');
        if (opens === undefined || closes === undefined || extra !== undefined)
          throw new CellFormatError('workingHours', part);
        return { day: weekday, opensAt: clockSeconds(opens), closesAt: clockSeconds(closes) };
      });
    },
  },
};

/** A value as its kind writes it in a cell. */
export function formatCell(kind: CellKind, value: unknown, options: CellOptions = {}): CellValue {
  return (cellFormats[kind] as CellFormat<unknown>).format(value, options);
}

/** A cell as its kind reads it; throws `CellFormatError` for a text the kind cannot read. */
export function parseCell(kind: CellKind, cell: CellValue, options: CellOptions = {}): unknown {
  return (cellFormats[kind] as CellFormat<unknown>).parse(cell, options);
}

/** A cell as a CSV field (RFC 4180): quoted when it holds a quote, comma or line break. */
export function csvField(cell: CellValue): string {
  if (cell === null) return '';
  const text = typeof cell === 'number' ? String(cell) : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A row of cells as one CSV line, ended by CRLF as RFC 4180 writes it. */
export function csvLine(cells: readonly CellValue[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
