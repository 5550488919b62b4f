import type { LocalizedText, MoneyInputIssue, VariantRow } from '@dukkan/contract';
import { barcodeIssue, formatMoneyInput, variantDisplayTitle } from '@dukkan/contract';
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import {
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../components/ui/badge.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { useMessageText } from '../../lib/message-text.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import {
  isClipboardBlock,
  isMoneyColumn,
  type MoneyColumn,
  moneyCellValue,
  parseClipboardBlock,
  pastableColumns,
  pasteBlock,
  textColumns,
  type VariantColumn,
  withCell,
} from './variant-grid-model.ts';
import { VariantImagePicker, VariantThumbnail } from './variant-image-picker.tsx';
import { useVariantTexts, type VariantTextKey } from './variant-texts.ts';

/*
 * A product's variants as a spreadsheet: up to 2,048 rows, of which only those in view (and a few
 * around them) are in the DOM. The ARIA grid pattern: the grid is one tab stop (the active cell,
 * tabIndex 0), arrows move between cells (left and right swap in right-to-left), Enter or typing
 * edits a text cell, Enter commits, Escape cancels, Tab commits and moves to the next cell.
 *
 * Below the `compactQuery` breakpoint (a phone) each row is drawn as a card — the variant's full
 * title, SKU, barcode, price, cost, status and image — with the same cells in the same order, the
 * same keys and the same virtualizer (taller fixed rows): the grid stays one grid, only its rows'
 * layout changes.
 */

/** Fixed heights: every row's place is known without measuring, so any row can be scrolled to at once. */
const rowHeight = 56;
const cardHeight = 244;
const headerHeight = 40;
const overscan = 6;

/** Narrower than this, the rows are cards (a 390-px phone; the grid needs about 54rem). */
export const compactQuery = '(max-width: 47.99rem)';

const columnWidths: Record<VariantColumn, string> = {
  select: '2.75rem',
  title: 'minmax(10rem, 2fr)',
  sku: 'minmax(8.5rem, 1.5fr)',
  barcode: 'minmax(8.5rem, 1.5fr)',
  price: 'minmax(6rem, 1fr)',
  cost: 'minmax(6rem, 1fr)',
  image: '4.5rem',
  status: '7.5rem',
};

/** A card's layout: the cells by name (every cell sets its `grid-area`). */
const cardTemplate = {
  gridTemplateColumns: '2.75rem minmax(0, 1fr) minmax(0, 1fr) 3.25rem',
  gridTemplateRows: '2.75rem 4.25rem 4.25rem 2.25rem',
  gridTemplateAreas: `"select title title image" "sku sku barcode barcode" "price price cost cost" "status status status status"`,
};

const columnHeaders: Record<Exclude<VariantColumn, 'select'>, VariantTextKey> = {
  title: 'columnTitle',
  sku: 'columnSku',
  barcode: 'columnBarcode',
  price: 'columnPrice',
  cost: 'columnCost',
  image: 'columnImage',
  status: 'columnStatus',
};

type MessageColumn = 'sku' | 'barcode' | MoneyColumn;

/** Messages under a variant's cells, by the variant's key: already translated (the server's refusals). */
export type VariantGridErrors = Record<string, Partial<Record<MessageColumn, string>>>;

/**
 * An amount typed into a price or cost cell that is not one: what was typed, why, and the value the
 * cell held (the message stands while the cell still holds it; an edit of the cell by other means
 * ends it). By variant id.
 */
type MoneyIssue = { text: string; code: MoneyInputIssue; was: number | null };
type MoneyIssues = Record<string, Partial<Record<MoneyColumn, MoneyIssue>>>;

/** The issues still standing (their cell unchanged since), for the count and the messages. */
function standingIssue<V extends VariantRow>(
  issues: MoneyIssues,
  variant: V,
  column: MoneyColumn,
): MoneyIssue | undefined {
  const issue = issues[variant.id]?.[column];
  return issue && issue.was === variant[column] ? issue : undefined;
}

interface VariantGridProps<V extends VariantRow> {
  variants: readonly V[];
  /** The product's images: a variant's image is one of them. */
  productImages: readonly string[];
  readOnly: boolean;
  /** The whole list after an edit; only the variants the edit changed are new objects. */
  onChange: (next: V[]) => void;
  /** The selected variants' ids. */
  selection: ReadonlySet<string>;
  onSelectionChange: (next: Set<string>) => void;
  errors?: VariantGridErrors;
  /** The grid's accessible name; "Variants" by default. */
  label?: string;
  /** The scrolling frame's height (a CSS length); by default 28rem, or 36rem as cards. */
  height?: string;
  /** The workspace's base currency: prices and costs are its minor units, typed with its decimals. */
  currency: string;
  /** The product's name: a card titles its variant 'product - values' (spec §9). */
  parentTitle?: LocalizedText;
  /** How many price or cost cells hold a typed text that is not an amount (the page waits for none). */
  onInvalidCountChange?: (count: number) => void;
}

interface CellPosition {
  row: number;
  column: number;
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

const isRtl = (element: Element | null) =>
  (element?.closest('[dir]')?.getAttribute('dir') ?? document.documentElement.dir) === 'rtl';

/** The text input of a cell being edited; it reports its value on commit. */
function CellEditor({
  initial,
  label,
  inputMode,
  ltr,
  invalid,
  describedBy,
  onKey,
  onBlur,
}: {
  initial: string;
  label: string;
  inputMode: 'numeric' | 'decimal' | undefined;
  /** Codes and amounts are typed left to right in either language. */
  ltr: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  onKey: (event: KeyboardEvent<HTMLInputElement>, value: string) => void;
  onBlur: (value: string) => void;
}) {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  return (
    <input
      ref={input}
      value={value}
      dir={ltr ? 'ltr' : 'auto'}
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      inputMode={inputMode}
      autoComplete="off"
      spellCheck={false}
      onChange={(event: ChangeEvent<HTMLInputElement>) => setValue(event.target.value)}
      onKeyDown={(event) => onKey(event, value)}
      onBlur={() => onBlur(value)}
      className="h-8 w-full min-w-0 rounded-md border border-brand-600 bg-white px-2 text-sm text-slate-900 outline-none aria-invalid:border-red-500 dark:border-brand-400 dark:bg-slate-950 dark:text-slate-100"
    />
  );
}

/** What a row asks of the grid; one object for the grid's life, so rows that did not change skip rendering. */
interface RowActions {
  toggleSelected: (row: number, extend: boolean) => void;
  setCell: (row: number, column: VariantColumn, value: string | null) => void;
  focusCell: (row: number, column: number) => void;
  /** Edits a cell, its editor starting with `initial` (a typed key), or with the cell's value when null. */
  startEditing: (row: number, column: number, initial: string | null) => void;
  /** Ends the edit of this cell, if it is still the one being edited (a blur after a commit is not). */
  blurEditor: (row: number, column: number, value: string) => void;
  onEditorKey: (event: KeyboardEvent<HTMLInputElement>, value: string) => void;
  openImageMenu: (variantId: string | null) => void;
}

interface VariantGridRowProps<V extends VariantRow> {
  variant: V;
  row: number;
  /** Where the row sits in the scrolled frame (fixed row heights: the same for a row all along). */
  top: number;
  columns: readonly VariantColumn[];
  template: string;
  /** A card (a phone) rather than a row of the table. */
  compact: boolean;
  /** The card's title: 'product - values' (spec §9). */
  displayTitle: string;
  readOnly: boolean;
  selected: boolean;
  /** The active cell's column when this row holds it (the grid's one tab stop), else -1. */
  activeColumn: number;
  /** The column of this row's cell being edited, else -1; and the text its editor starts with. */
  editingColumn: number;
  editingInitial: string;
  errors: Partial<Record<MessageColumn, string>> | undefined;
  moneyIssues: Partial<Record<MoneyColumn, MoneyIssue>> | undefined;
  currency: string;
  language: string;
  imageMenuOpen: boolean;
  productImages: readonly string[];
  text: ReturnType<typeof useVariantTexts>;
  messageText: (message: string) => string;
  actions: RowActions;
}

const editorLabels: Record<MessageColumn, VariantTextKey> = {
  sku: 'skuOf',
  barcode: 'barcodeOf',
  price: 'priceOf',
  cost: 'costOf',
};

/** A cell's message: a typed amount that is not one, a barcode that cannot be, or the server's. */
function cellMessage<V extends VariantRow>(
  variant: V,
  kind: VariantColumn,
  errors: Partial<Record<MessageColumn, string>> | undefined,
  moneyIssues: Partial<Record<MoneyColumn, MoneyIssue>> | undefined,
  messageText: (message: string) => string,
): string | undefined {
  if (isMoneyColumn(kind)) {
    const issue = moneyIssues?.[kind];
    if (issue && issue.was === variant[kind]) return messageText(issue.code);
    return errors?.[kind];
  }
  if (kind !== 'sku' && kind !== 'barcode') return undefined;
  const local = kind === 'barcode' && variant.barcode ? barcodeIssue(variant.barcode) : null;
  return local ? messageText(local) : errors?.[kind];
}

/**
 * One variant's row. Memoized: scrolling mounts the rows that come into view and leaves the others
 * alone, and an edit renders the row it changed (every prop but the variant is a primitive or
 * stable while nothing else changes).
 */
const VariantGridRow = memo(function VariantGridRow<V extends VariantRow>({
  variant,
  row,
  top,
  columns,
  template,
  compact,
  displayTitle,
  readOnly,
  selected,
  activeColumn,
  editingColumn,
  editingInitial,
  errors,
  moneyIssues,
  currency,
  language,
  imageMenuOpen,
  productImages,
  text,
  messageText,
  actions,
}: VariantGridRowProps<V>) {
  const renderCell = (kind: VariantColumn, column: number): ReactNode => {
    const isActive = column === activeColumn;
    const isEditing = editingColumn === column;
    const error = cellMessage(variant, kind, errors, moneyIssues, messageText);
    const errorId = error ? `variant-${variant.id}-${kind}-error` : undefined;
    // On a card, the field's name above its value (the header row is there for screen readers only).
    const caption =
      compact && kind !== 'select' && kind !== 'title' && kind !== 'image' && kind !== 'status' ? (
        <span aria-hidden="true" className="text-xs font-semibold text-slate-500 dark:text-slate-400">
          {text(columnHeaders[kind])}
        </span>
      ) : null;

    let content: ReactNode;
    if (kind === 'select') {
      content = (
        <Checkbox
          tabIndex={-1}
          checked={selected}
          aria-label={text('selectVariant', { title: variant.title })}
          onChange={(event) =>
            actions.toggleSelected(row, (event.nativeEvent as MouseEvent).shiftKey === true)
          }
        />
      );
    } else if (kind === 'title') {
      content = (
        <span className={cn('font-semibold', compact ? 'line-clamp-2 text-sm' : 'truncate')}>
          {compact ? displayTitle : variant.title}
        </span>
      );
    } else if (kind === 'sku' || kind === 'barcode' || isMoneyColumn(kind)) {
      const money = isMoneyColumn(kind);
      const issue = money ? moneyIssues?.[kind] : undefined;
      const standing = issue && issue.was === variant[kind as MoneyColumn] ? issue : undefined;
      let shown: ReactNode;
      if (standing) shown = standing.text;
      else if (money) {
        const amount = variant[kind as MoneyColumn];
        shown =
          amount === null ? (
            <span className="text-slate-400 dark:text-slate-500">—</span>
          ) : (
            formatMoneyInput(amount, currency, language)
          );
      } else shown = variant[kind as 'sku' | 'barcode'] ?? '';
      content = (
        <div className="flex min-w-0 flex-1 flex-col justify-center">
          {caption}
          {isEditing ? (
            <CellEditor
              initial={editingInitial}
              label={text(editorLabels[kind as MessageColumn], { title: variant.title })}
              inputMode={money ? 'decimal' : kind === 'barcode' ? 'numeric' : undefined}
              ltr
              invalid={Boolean(error)}
              describedBy={errorId}
              onKey={actions.onEditorKey}
              onBlur={(value) => actions.blurEditor(row, column, value)}
            />
          ) : (
            // Codes and amounts read left to right, isolated from the text around them, in Arabic
            // too; placed by the page's direction (a code at the start, by its header, an amount at
            // the end). A left-aligned code in a right-to-left grid wider than a phone sat in the
            // part of its column scrolled out of view.
            <div
              className={cn(
                'h-6 truncate leading-6 tabular-nums',
                // An amount at the end of its column; on a card, under its name like the rest.
                money && !compact ? 'text-end' : 'text-start',
                kind === 'sku' && 'font-mono text-[0.8125rem]',
              )}
            >
              <bdi dir="ltr">{shown}</bdi>
            </div>
          )}
          {error && (
            <span id={errorId} className="line-clamp-1 text-xs text-red-600 dark:text-red-400" title={error}>
              {error}
            </span>
          )}
        </div>
      );
    } else if (kind === 'image') {
      const image = variant.images[0] ?? null;
      const button = (
        <button
          type="button"
          tabIndex={-1}
          aria-label={text('chooseImageOf', { title: variant.title })}
          onClick={() => actions.openImageMenu(variant.id)}
          className="rounded-md hover:ring-2 hover:ring-slate-300 dark:hover:ring-slate-600"
        >
          <VariantThumbnail src={image} />
        </button>
      );
      // One chooser at a time: only the row whose chooser is open renders a popover.
      content = readOnly ? (
        <VariantThumbnail src={image} />
      ) : imageMenuOpen ? (
        <Popover open onOpenChange={(open) => actions.openImageMenu(open ? variant.id : null)}>
          <PopoverTrigger asChild>{button}</PopoverTrigger>
          <PopoverContent aria-label={text('chooseImageOf', { title: variant.title })}>
            <VariantImagePicker
              images={productImages}
              value={image}
              onChoose={(chosen) => {
                actions.openImageMenu(null);
                actions.setCell(row, 'image', chosen);
              }}
            />
          </PopoverContent>
        </Popover>
      ) : (
        button
      );
    } else {
      const on = variant.status === 'active';
      content = readOnly ? (
        <Badge tone={on ? 'success' : 'neutral'}>{text(on ? 'active' : 'inactive')}</Badge>
      ) : (
        <button
          type="button"
          role="switch"
          tabIndex={-1}
          aria-checked={on}
          aria-label={text('activeOf', { title: variant.title })}
          onClick={() => actions.setCell(row, 'status', on ? 'inactive' : 'active')}
          className="inline-flex items-center gap-2 text-sm"
        >
          <span
            aria-hidden="true"
            className={cn(
              'relative inline-block h-5 w-9 shrink-0 rounded-full transition-colors',
              on ? 'bg-brand-600 dark:bg-brand-500' : 'bg-slate-300 dark:bg-slate-600',
            )}
          >
            <span
              className={cn(
                'absolute top-0.5 size-4 rounded-full bg-white shadow transition-[inset-inline-start]',
                on ? 'start-4.5' : 'start-0.5',
              )}
            />
          </span>
          <span className="text-slate-700 dark:text-slate-300">{text(on ? 'active' : 'inactive')}</span>
        </button>
      );
    }

    return (
      // biome-ignore lint/a11y/useSemanticElements: a virtualized grid is divs with ARIA roles (see VariantGrid)
      <div
        key={kind}
        role="gridcell"
        data-cell={`${row}:${column}`}
        aria-colindex={column + 1}
        aria-readonly={!readOnly && kind === 'title' ? true : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={!isEditing ? errorId : undefined}
        tabIndex={isActive ? 0 : -1}
        onFocus={() => {
          if (!isActive) actions.focusCell(row, column);
        }}
        onDoubleClick={() => {
          if (!readOnly && textColumns.has(kind) && !isEditing) actions.startEditing(row, column, null);
        }}
        style={compact ? { gridArea: kind } : undefined}
        className={cn(
          'flex min-w-0 items-center gap-2 overflow-hidden outline-none',
          compact ? 'rounded-md px-1' : 'px-3',
          kind === 'select' && 'justify-center px-0',
          compact && kind === 'image' && 'justify-end',
          'focus:ring-2 focus:ring-brand-600 focus:ring-inset dark:focus:ring-brand-400',
          isActive && 'focus-within:ring-2 focus-within:ring-brand-600/50 focus-within:ring-inset',
          error && 'bg-red-50/60 dark:bg-red-500/10',
        )}
      >
        {content}
      </div>
    );
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: see VariantGrid
    <div
      role="row"
      data-row={row}
      aria-rowindex={row + 2}
      aria-selected={readOnly ? undefined : selected}
      className={cn(
        'absolute inset-x-0 top-0 grid',
        compact
          ? 'gap-x-2 gap-y-1 border-b-8 border-slate-100 p-3 dark:border-slate-950'
          : 'border-b border-slate-100 dark:border-slate-800',
        selected && 'bg-brand-50/60 dark:bg-brand-500/10',
        variant.status === 'inactive' && 'text-slate-500 dark:text-slate-400',
      )}
      style={{
        height: compact ? cardHeight : rowHeight,
        transform: `translateY(${top}px)`,
        ...(compact ? cardTemplate : { gridTemplateColumns: template }),
      }}
    >
      {columns.map(renderCell)}
    </div>
  );
}) as <V extends VariantRow>(props: VariantGridRowProps<V>) => ReactNode;

/**
 * The product page's variant grid: SKU, barcode, price, cost, image and status of every variant,
 * edited in place; cards on a phone.
 */
export function VariantGrid<V extends VariantRow>({
  variants,
  productImages,
  readOnly,
  onChange,
  selection,
  onSelectionChange,
  errors,
  label,
  height,
  currency,
  parentTitle,
  onInvalidCountChange,
}: VariantGridProps<V>) {
  const text = useVariantTexts();
  const messageText = useMessageText();
  const { i18n } = useTranslation();
  const language = i18n.language;
  const compact = useMediaQuery(compactQuery) === true;
  const columns = useMemo<VariantColumn[]>(
    () =>
      readOnly
        ? ['title', 'sku', 'barcode', 'price', 'cost', 'image', 'status']
        : ['select', 'title', 'sku', 'barcode', 'price', 'cost', 'image', 'status'],
    [readOnly],
  );
  const template = columns.map((column) => columnWidths[column]).join(' ');
  const count = variants.length;
  const itemHeight = compact ? cardHeight : rowHeight;
  // The header row is for screen readers only on cards: each card names its fields.
  const topPadding = compact ? 0 : headerHeight;

  const [moneyIssues, setMoneyIssues] = useState<MoneyIssues>({});
  const [announcement, setAnnouncement] = useState('');
  const invalidCount = useMemo(() => {
    let total = 0;
    for (const variant of variants) {
      if (!moneyIssues[variant.id]) continue;
      if (standingIssue(moneyIssues, variant, 'price')) total++;
      if (standingIssue(moneyIssues, variant, 'cost')) total++;
    }
    return total;
  }, [variants, moneyIssues]);
  useEffect(() => onInvalidCountChange?.(invalidCount), [invalidCount, onInvalidCountChange]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<CellPosition>({ row: 0, column: 0 });
  const activeRow = clamp(active.row, 0, Math.max(count - 1, 0));
  const activeColumn = clamp(active.column, 0, columns.length - 1);
  // The cell being edited, and the text it started with (a typed character replaces the value).
  const [editing, setEditing] = useState<(CellPosition & { initial: string }) | null>(null);
  // Read by the blur and paste handlers, which can run after a commit in the same event.
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const [imageMenuFor, setImageMenuFor] = useState<string | null>(null);
  // Set when a key moved the active cell: the next render focuses it and scrolls it into view.
  const focusPending = useRef(false);
  const selectionAnchor = useRef<number | null>(null);

  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      // The active row stays in the DOM when scrolled away: it holds the grid's one tab stop.
      if (count === 0 || indexes.includes(activeRow)) return indexes;
      return [...indexes, activeRow].sort((a, b) => a - b);
    },
    [activeRow, count],
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => itemHeight,
    // A card is four rows tall: two beyond each end of the frame cover a flick, as six rows do.
    overscan: compact ? 2 : overscan,
    // The sticky header takes the first pixels of the frame: rows start under it, and a row
    // scrolled to stops under it, not behind it.
    paddingStart: topPadding,
    scrollPaddingStart: topPadding,
    rangeExtractor,
  });
  // Rows become cards (or cards rows) when the window crosses the breakpoint: placed afresh.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the size changes with `compact`
  useEffect(() => virtualizer.measure(), [compact, virtualizer]);

  useEffect(() => {
    if (!focusPending.current || editing) return;
    focusPending.current = false;
    virtualizer.scrollToIndex(activeRow);
    const cell = scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${activeRow}:${activeColumn}"]`);
    cell?.focus({ preventScroll: true });
    cell?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  });

  const moveTo = (row: number, column: number) => {
    focusPending.current = true;
    setActive({ row: clamp(row, 0, count - 1), column: clamp(column, 0, columns.length - 1) });
  };

  const replaceVariant = (index: number, updated: V) => {
    if (updated === variants[index]) return;
    const next = [...variants];
    next[index] = updated;
    onChange(next);
  };

  const setCell = (index: number, column: VariantColumn, value: string | null) => {
    const variant = variants[index];
    if (variant) replaceVariant(index, withCell(variant, column, value, productImages));
  };

  const toggleSelected = (index: number, extend: boolean) => {
    const variant = variants[index];
    if (!variant) return;
    const select = !selection.has(variant.id);
    const next = new Set(selection);
    const anchor = extend ? selectionAnchor.current : null;
    const [from, to] = anchor === null ? [index, index] : [Math.min(anchor, index), Math.max(anchor, index)];
    for (let row = from; row <= to; row++) {
      const id = variants[row]?.id;
      if (id === undefined) continue;
      if (select) next.add(id);
      else next.delete(id);
    }
    selectionAnchor.current = index;
    onSelectionChange(next);
  };

  const allSelected = count > 0 && variants.every((variant) => selection.has(variant.id));
  const someSelected = !allSelected && variants.some((variant) => selection.has(variant.id));

  /** A cell's text as its editor starts: an amount in the member's digits, or the typed text that was not one. */
  const editText = (row: number, column: number): string => {
    const variant = variants[row];
    const kind = columns[column];
    if (!variant || !kind) return '';
    if (isMoneyColumn(kind)) {
      const issue = standingIssue(moneyIssues, variant, kind);
      if (issue) return issue.text;
      const amount = variant[kind];
      return amount === null ? '' : formatMoneyInput(amount, currency, language);
    }
    return kind === 'sku' || kind === 'barcode' ? (variant[kind] ?? '') : '';
  };

  const startEditing = (row: number, column: number, initial: string | null) => {
    setActive({ row, column });
    setEditing({ row, column, initial: initial ?? editText(row, column) });
  };

  /** Keeps a typed amount or tells why it is not one (kept in the cell, under it and announced). */
  const commitMoney = (row: number, column: MoneyColumn, typed: string) => {
    const variant = variants[row];
    if (!variant) return;
    const amount = moneyCellValue(column, typed, currency);
    const current = moneyIssues[variant.id];
    if (!amount.ok) {
      setMoneyIssues({
        ...moneyIssues,
        [variant.id]: { ...current, [column]: { text: typed, code: amount.code, was: variant[column] } },
      });
      setAnnouncement(
        text('cellIssue', {
          title: variant.title,
          column: text(columnHeaders[column]),
          message: messageText(amount.code),
        }),
      );
      return;
    }
    if (current?.[column]) {
      const { [column]: _fixed, ...rest } = current;
      setMoneyIssues({ ...moneyIssues, [variant.id]: rest });
    }
    setCell(row, column, amount.minor === null ? null : String(amount.minor));
  };

  /** Ends the edit, keeping the typed value; `then` is where the active cell goes (null: stays put, unfocused). */
  const commitEdit = (value: string, then: CellPosition | 'stay' | null) => {
    const edit = editingRef.current;
    if (!edit) return;
    editingRef.current = null;
    setEditing(null);
    const column = columns[edit.column];
    if (column && isMoneyColumn(column)) commitMoney(edit.row, column, value);
    else if (column && textColumns.has(column)) setCell(edit.row, column, value);
    if (then === 'stay') moveTo(edit.row, edit.column);
    else if (then) moveTo(then.row, then.column);
  };

  const cancelEdit = () => {
    const edit = editingRef.current;
    if (!edit) return;
    editingRef.current = null;
    setEditing(null);
    moveTo(edit.row, edit.column);
  };

  /** The cell after (or before) this one, row by row; null past the grid's ends. */
  const nextCell = ({ row, column }: CellPosition, step: 1 | -1): CellPosition | null => {
    const flat = row * columns.length + column + step;
    if (flat < 0 || flat >= count * columns.length) return null;
    return { row: Math.floor(flat / columns.length), column: flat % columns.length };
  };

  const onEditorKey = (event: KeyboardEvent<HTMLInputElement>, value: string) => {
    const edit = editingRef.current;
    if (!edit) return;
    const vertical = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (event.key === 'Enter') commitEdit(value, 'stay');
    else if (event.key === 'Escape') cancelEdit();
    else if (event.key === 'Tab') commitEdit(value, nextCell(edit, event.shiftKey ? -1 : 1) ?? 'stay');
    else if (vertical !== 0)
      commitEdit(value, { row: clamp(edit.row + vertical, 0, count - 1), column: edit.column });
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const statusOf = (pasted: string) => {
    const lower = pasted.toLocaleLowerCase();
    if (lower === 'active' || lower === text('active').toLocaleLowerCase()) return 'active' as const;
    if (lower === 'inactive' || lower === text('inactive').toLocaleLowerCase()) return 'inactive' as const;
    return null;
  };

  /** Enter or Space on a cell: edit it, toggle it or open its chooser. */
  const activateCell = (row: number, column: number, key: 'Enter' | ' ') => {
    const variant = variants[row];
    const kind = columns[column];
    if (!variant || !kind) return false;
    if (kind === 'select') toggleSelected(row, false);
    else if (readOnly || kind === 'title') return false;
    else if (textColumns.has(kind)) {
      if (key !== 'Enter') return false;
      startEditing(row, column, null);
    } else if (kind === 'image') setImageMenuFor(variant.id);
    else setCell(row, 'status', variant.status === 'active' ? 'inactive' : 'active');
    return true;
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys typed in the image chooser (a portal) reach here through React's tree: not ours.
    if (editingRef.current || !event.currentTarget.contains(target) || !target.closest('[data-row]')) return;
    const onCell = target.getAttribute('role') === 'gridcell';
    const row = activeRow;
    const column = activeColumn;
    const kind = columns[column];
    const inlineStep = isRtl(event.currentTarget) ? -1 : 1;
    const toEdge = event.ctrlKey || event.metaKey;
    const pageRows = Math.max(
      1,
      Math.floor(((scrollRef.current?.clientHeight ?? 0) - topPadding) / itemHeight),
    );
    switch (event.key) {
      case 'ArrowDown':
        moveTo(row + 1, column);
        break;
      case 'ArrowUp':
        moveTo(row - 1, column);
        break;
      case 'ArrowRight':
        moveTo(row, column + inlineStep);
        break;
      case 'ArrowLeft':
        moveTo(row, column - inlineStep);
        break;
      case 'Home':
        moveTo(toEdge ? 0 : row, 0);
        break;
      case 'End':
        moveTo(toEdge ? count - 1 : row, columns.length - 1);
        break;
      case 'PageDown':
        moveTo(row + pageRows, column);
        break;
      case 'PageUp':
        moveTo(row - pageRows, column);
        break;
      case 'Enter':
      case ' ':
        // On a control inside the cell (the checkbox, the image button), the control's own action.
        if (!onCell || !activateCell(row, column, event.key)) return;
        break;
      case 'F2':
        if (!activateCell(row, column, 'Enter')) return;
        break;
      case 'Delete':
      case 'Backspace':
        if (readOnly || !kind || !textColumns.has(kind)) return;
        // A price cannot be blank: its cell keeps the amount (a cost is removed).
        setCell(row, kind, null);
        break;
      default: {
        const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
        if (!printable || readOnly || !kind || !textColumns.has(kind)) return;
        // Typing into a cell replaces its value, as in a spreadsheet.
        startEditing(row, column, event.key);
      }
    }
    event.preventDefault();
  };

  const onGridPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (readOnly || !event.currentTarget.contains(event.target as Node)) return;
    const pasted = event.clipboardData.getData('text/plain');
    const edit = editingRef.current;
    // One value pasted into the open editor is the editor's business.
    if (edit && !isClipboardBlock(pasted)) return;
    const origin = edit ?? { row: activeRow, column: activeColumn };
    const kind = columns[origin.column];
    if (!kind || !pastableColumns.has(kind)) return;
    event.preventDefault();
    if (edit) {
      editingRef.current = null;
      setEditing(null);
      moveTo(edit.row, edit.column);
    }
    const result = pasteBlock(variants, parseClipboardBlock(pasted), {
      ...origin,
      columns,
      productImages,
      statusOf,
      currency,
    });
    if (result.changed > 0) onChange(result.variants);
    // Amounts that were not: their cells show the pasted text and why, as if typed.
    if (result.issues.length > 0) {
      const next = { ...moneyIssues };
      for (const issue of result.issues) {
        const variant = result.variants[issue.row];
        if (!variant) continue;
        next[variant.id] = {
          ...next[variant.id],
          [issue.column]: { text: issue.text, code: issue.code, was: variant[issue.column] },
        };
      }
      setMoneyIssues(next);
      setAnnouncement(text('pasteSkipped', { count: result.issues.length }));
    } else setAnnouncement('');
  };

  // The rows call the latest handlers through one object that never changes (see VariantGridRow).
  const handlers = {
    toggleSelected,
    setCell,
    startEditing,
    onEditorKey,
    focusCell: (row: number, column: number) => setActive({ row, column }),
    blurEditor: (row: number, column: number, value: string) => {
      if (editingRef.current?.row === row && editingRef.current.column === column) commitEdit(value, null);
    },
    openImageMenu: setImageMenuFor,
  };
  const latest = useRef(handlers);
  latest.current = handlers;
  const actions = useMemo<RowActions>(
    () => ({
      toggleSelected: (row, extend) => latest.current.toggleSelected(row, extend),
      setCell: (row, column, value) => latest.current.setCell(row, column, value),
      focusCell: (row, column) => latest.current.focusCell(row, column),
      startEditing: (row, column, initial) => latest.current.startEditing(row, column, initial),
      blurEditor: (row, column, value) => latest.current.blurEditor(row, column, value),
      onEditorKey: (event, value) => latest.current.onEditorKey(event, value),
      openImageMenu: (variantId) => latest.current.openImageMenu(variantId),
    }),
    [],
  );

  if (count === 0)
    return (
      <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
        {text('noVariants')}
      </p>
    );

  // The grid is divs with ARIA roles, not a table: its rows are placed absolutely as they scroll in,
  // and table elements restyled that way lose their table semantics in some browsers. Rows and
  // headers take no focus of their own (the ARIA grid pattern focuses cells).
  // The active cell's message in full, under the grid (a cell shows one line of it), and what an
  // edit or a paste reported.
  const activeVariant = variants[activeRow];
  const activeKind = columns[activeColumn];
  const activeMessage =
    activeVariant && activeKind
      ? cellMessage(
          activeVariant,
          activeKind,
          errors?.[activeVariant.key],
          moneyIssues[activeVariant.id],
          messageText,
        )
      : undefined;
  const selectAll = (
    <Checkbox
      checked={allSelected}
      indeterminate={someSelected}
      aria-label={text('selectAll')}
      onChange={() =>
        onSelectionChange(allSelected ? new Set() : new Set(variants.map((variant) => variant.id)))
      }
    />
  );
  const footnote =
    activeVariant && activeKind && activeKind !== 'select' && activeMessage
      ? text('cellIssue', {
          title: activeVariant.title,
          column: text(columnHeaders[activeKind]),
          message: activeMessage,
        })
      : announcement;

  return (
    <div className="space-y-2">
      {compact && !readOnly && (
        <div className="flex items-center gap-3 px-3 text-sm font-semibold text-slate-700 dark:text-slate-200">
          {selectAll}
          <span aria-hidden="true">{text('selectAll')}</span>
        </div>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: see above */}
      <div
        ref={scrollRef}
        role="grid"
        aria-label={label ?? text('gridLabel')}
        aria-rowcount={count + 1}
        aria-colcount={columns.length}
        aria-readonly={readOnly || undefined}
        aria-multiselectable={readOnly ? undefined : true}
        onKeyDown={onGridKeyDown}
        onPaste={onGridPaste}
        style={{ height: height ?? (compact ? '36rem' : '28rem'), scrollPaddingBlockStart: topPadding }}
        className="relative overflow-auto rounded-xl border border-slate-200 bg-white text-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <div
          className={cn('relative', !compact && 'min-w-[54rem]')}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {/* biome-ignore lint/a11y/useSemanticElements: see above */}
          <div role="rowgroup" className={compact ? 'sr-only' : 'sticky top-0 z-10'}>
            {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: see above */}
            <div
              role="row"
              aria-rowindex={1}
              className="grid border-b border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600 dark:border-slate-800 dark:bg-slate-800 dark:text-slate-400"
              style={{ height: headerHeight, gridTemplateColumns: template }}
            >
              {columns.map((kind, column) => (
                // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: see above
                <div
                  key={kind}
                  role="columnheader"
                  aria-colindex={column + 1}
                  className={cn(
                    'flex items-center px-3 text-start',
                    kind === 'select' && 'justify-center px-0',
                  )}
                >
                  {kind === 'select'
                    ? // On cards the header is hidden: "Select all" stands above them instead.
                      compact
                      ? text('columnSelect')
                      : selectAll
                    : text(columnHeaders[kind])}
                </div>
              ))}
            </div>
          </div>
          {/* biome-ignore lint/a11y/useSemanticElements: see above */}
          <div role="rowgroup">
            {virtualizer.getVirtualItems().map((item) => {
              const variant = variants[item.index];
              if (!variant) return null;
              const isActiveRow = item.index === activeRow;
              return (
                <VariantGridRow
                  key={variant.id}
                  variant={variant}
                  row={item.index}
                  top={item.start}
                  columns={columns}
                  template={template}
                  compact={compact}
                  displayTitle={
                    compact
                      ? variantDisplayTitle(
                          parentTitle,
                          [{ locale: language, value: variant.title }],
                          language,
                        )
                      : variant.title
                  }
                  readOnly={readOnly}
                  selected={selection.has(variant.id)}
                  activeColumn={isActiveRow ? activeColumn : -1}
                  editingColumn={editing?.row === item.index ? editing.column : -1}
                  editingInitial={editing?.row === item.index ? editing.initial : ''}
                  errors={errors?.[variant.key]}
                  moneyIssues={moneyIssues[variant.id]}
                  currency={currency}
                  language={language}
                  imageMenuOpen={imageMenuFor === variant.id}
                  productImages={productImages}
                  text={text}
                  messageText={messageText}
                  actions={actions}
                />
              );
            })}
          </div>
        </div>
      </div>
      <p aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {footnote}
      </p>
    </div>
  );
}
