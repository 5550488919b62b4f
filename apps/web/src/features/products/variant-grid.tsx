import type { VariantRow } from '@dukkan/contract';
import { barcodeIssue } from '@dukkan/contract';
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
import { Badge } from '../../components/ui/badge.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { useMessageText } from '../../lib/message-text.ts';
import {
  isClipboardBlock,
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
 */

/** Fixed heights: every row's place is known without measuring, so any row can be scrolled to at once. */
const rowHeight = 56;
const headerHeight = 40;
const overscan = 6;

const columnWidths: Record<VariantColumn, string> = {
  select: '2.75rem',
  title: 'minmax(12rem, 2fr)',
  sku: 'minmax(10rem, 1.5fr)',
  barcode: 'minmax(10rem, 1.5fr)',
  image: '5.5rem',
  status: '8.5rem',
};

const columnHeaders: Record<Exclude<VariantColumn, 'select'>, VariantTextKey> = {
  title: 'columnTitle',
  sku: 'columnSku',
  barcode: 'columnBarcode',
  image: 'columnImage',
  status: 'columnStatus',
};

/** Messages under a variant's cells, by the variant's key: already translated (the server's refusals). */
export type VariantGridErrors = Record<string, Partial<Record<'sku' | 'barcode', string>>>;

export interface VariantGridProps<V extends VariantRow> {
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
  /** The scrolling frame's height (a CSS length). */
  height?: string;
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
  numeric,
  invalid,
  describedBy,
  onKey,
  onBlur,
}: {
  initial: string;
  label: string;
  numeric: boolean;
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
      dir="auto"
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      inputMode={numeric ? 'numeric' : undefined}
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
  startEditing: (row: number, column: number, initial: string) => void;
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
  readOnly: boolean;
  selected: boolean;
  /** The active cell's column when this row holds it (the grid's one tab stop), else -1. */
  activeColumn: number;
  /** The column of this row's cell being edited, else -1; and the text its editor starts with. */
  editingColumn: number;
  editingInitial: string;
  errors: Partial<Record<'sku' | 'barcode', string>> | undefined;
  imageMenuOpen: boolean;
  productImages: readonly string[];
  text: ReturnType<typeof useVariantTexts>;
  messageText: (message: string) => string;
  actions: RowActions;
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
  readOnly,
  selected,
  activeColumn,
  editingColumn,
  editingInitial,
  errors,
  imageMenuOpen,
  productImages,
  text,
  messageText,
  actions,
}: VariantGridRowProps<V>) {
  const renderCell = (kind: VariantColumn, column: number): ReactNode => {
    const isActive = column === activeColumn;
    const isEditing = editingColumn === column;
    const local = kind === 'barcode' && variant.barcode ? barcodeIssue(variant.barcode) : null;
    const error =
      kind === 'sku' || kind === 'barcode' ? (local ? messageText(local) : errors?.[kind]) : undefined;
    const errorId = error ? `variant-${variant.id}-${kind}-error` : undefined;

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
      content = <span className="truncate font-semibold">{variant.title}</span>;
    } else if (kind === 'sku' || kind === 'barcode') {
      content = (
        <div className="flex min-w-0 flex-1 flex-col justify-center">
          {isEditing ? (
            <CellEditor
              initial={editingInitial}
              label={text(kind === 'sku' ? 'skuOf' : 'barcodeOf', { title: variant.title })}
              numeric={kind === 'barcode'}
              invalid={Boolean(error)}
              describedBy={errorId}
              onKey={actions.onEditorKey}
              onBlur={(value) => actions.blurEditor(row, column, value)}
            />
          ) : (
            <span dir="auto" className="truncate text-start tabular-nums">
              {variant[kind] ?? ''}
            </span>
          )}
          {error && (
            <span id={errorId} className="truncate text-xs text-red-600 dark:text-red-400" title={error}>
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
          if (!readOnly && (kind === 'sku' || kind === 'barcode') && !isEditing)
            actions.startEditing(row, column, variant[kind] ?? '');
        }}
        className={cn(
          'flex min-w-0 items-center gap-2 overflow-hidden px-3 outline-none',
          kind === 'select' && 'justify-center px-0',
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
        'absolute inset-x-0 top-0 grid border-b border-slate-100 dark:border-slate-800',
        selected && 'bg-brand-50/60 dark:bg-brand-500/10',
        variant.status === 'inactive' && 'text-slate-500 dark:text-slate-400',
      )}
      style={{ height: rowHeight, transform: `translateY(${top}px)`, gridTemplateColumns: template }}
    >
      {columns.map(renderCell)}
    </div>
  );
}) as <V extends VariantRow>(props: VariantGridRowProps<V>) => ReactNode;

/** The product page's variant grid: SKU, barcode, image and status of every variant, edited in place. */
export function VariantGrid<V extends VariantRow>({
  variants,
  productImages,
  readOnly,
  onChange,
  selection,
  onSelectionChange,
  errors,
  label,
  height = '28rem',
}: VariantGridProps<V>) {
  const text = useVariantTexts();
  const messageText = useMessageText();
  const columns = useMemo<VariantColumn[]>(
    () =>
      readOnly
        ? ['title', 'sku', 'barcode', 'image', 'status']
        : ['select', 'title', 'sku', 'barcode', 'image', 'status'],
    [readOnly],
  );
  const template = columns.map((column) => columnWidths[column]).join(' ');
  const count = variants.length;

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
    estimateSize: () => rowHeight,
    overscan,
    // The sticky header takes the first pixels of the frame: rows start under it, and a row
    // scrolled to stops under it, not behind it.
    paddingStart: headerHeight,
    scrollPaddingStart: headerHeight,
    rangeExtractor,
  });

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

  const startEditing = (row: number, column: number, initial: string) => {
    setActive({ row, column });
    setEditing({ row, column, initial });
  };

  /** Ends the edit, keeping the typed value; `then` is where the active cell goes (null: stays put, unfocused). */
  const commitEdit = (value: string, then: CellPosition | 'stay' | null) => {
    const edit = editingRef.current;
    if (!edit) return;
    editingRef.current = null;
    setEditing(null);
    const column = columns[edit.column];
    if (column && textColumns.has(column)) setCell(edit.row, column, value);
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
    else if (kind === 'sku' || kind === 'barcode') {
      if (key !== 'Enter') return false;
      startEditing(row, column, variant[kind] ?? '');
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
      Math.floor(((scrollRef.current?.clientHeight ?? 0) - headerHeight) / rowHeight),
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
    });
    if (result.changed > 0) onChange(result.variants);
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
  return (
    // biome-ignore lint/a11y/useSemanticElements: see above
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
      style={{ height, scrollPaddingBlockStart: headerHeight }}
      className="relative overflow-auto rounded-xl border border-slate-200 bg-white text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="relative min-w-[50rem]" style={{ height: virtualizer.getTotalSize() }}>
        {/* biome-ignore lint/a11y/useSemanticElements: see above */}
        <div role="rowgroup" className="sticky top-0 z-10">
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
                {kind === 'select' ? (
                  <Checkbox
                    checked={allSelected}
                    indeterminate={someSelected}
                    aria-label={text('selectAll')}
                    onChange={() =>
                      onSelectionChange(
                        allSelected ? new Set() : new Set(variants.map((variant) => variant.id)),
                      )
                    }
                  />
                ) : (
                  text(columnHeaders[kind])
                )}
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
                readOnly={readOnly}
                selected={selection.has(variant.id)}
                activeColumn={isActiveRow ? activeColumn : -1}
                editingColumn={editing?.row === item.index ? editing.column : -1}
                editingInitial={editing?.row === item.index ? editing.initial : ''}
                errors={errors?.[variant.key]}
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
  );
}
