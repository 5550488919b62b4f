import type { VariantRow } from '@dukkan/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bothLanguages } from '../../test/localized.ts';
import { VariantBulkEditBar } from './variant-bulk-edit-bar.tsx';
import { compactQuery, VariantGrid, type VariantGridErrors } from './variant-grid.tsx';
import { parseClipboardBlock, pasteBlock } from './variant-grid-model.ts';

const translate = i18next.t.bind(i18next) as unknown as (
  key: string,
  values?: Record<string, string | number>,
) => string;
/** A text as the component shows it (the key itself while the locale files lack it). */
const text = (key: string, values?: Record<string, string | number>) =>
  translate(`products.variants.${key}`, values);

const variant = (index: number, title: string, extra: Partial<VariantRow> = {}): VariantRow => ({
  id: `id-${index}`,
  key: `key-${index}`,
  title,
  sku: null,
  barcode: null,
  price: 0,
  cost: null,
  images: [],
  status: 'active',
  ...extra,
});

const latte = [
  variant(0, 'Small, Oat', { sku: 'L-S-OAT' }),
  variant(1, 'Small, Soy'),
  variant(2, 'Large, Oat', { barcode: '4006381333931' }),
  variant(3, 'Large, Soy', { status: 'inactive' }),
];

const productImages = ['/files/front.png', '/files/side.png'];

/** The grid as a page holds it: the variants and the selection in state, every change recorded. */
function Harness({
  initial,
  readOnly = false,
  errors,
  onChange = () => {},
  onSelectionChange = () => {},
  bulkBar = false,
  onInvalidCountChange,
}: {
  initial: VariantRow[];
  readOnly?: boolean;
  errors?: VariantGridErrors;
  onChange?: (next: VariantRow[]) => void;
  onSelectionChange?: (next: Set<string>) => void;
  bulkBar?: boolean;
  onInvalidCountChange?: (count: number) => void;
}) {
  const [variants, setVariants] = useState(initial);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const change = (next: VariantRow[]) => {
    onChange(next);
    setVariants(next);
  };
  return (
    <>
      {bulkBar && (
        <VariantBulkEditBar
          variants={variants}
          selection={selection}
          productCode="LATTE"
          productImages={productImages}
          currency="EGP"
          onChange={change}
        />
      )}
      <VariantGrid
        variants={variants}
        productImages={productImages}
        readOnly={readOnly}
        onChange={change}
        selection={selection}
        onSelectionChange={(next) => {
          onSelectionChange(next);
          setSelection(next);
        }}
        errors={errors}
        currency="EGP"
        parentTitle={bothLanguages('Latte', 'لاتيه')}
        onInvalidCountChange={onInvalidCountChange}
      />
    </>
  );
}

/** The cell at a variant's index and a column's index, both from 0 (the grid counts from 1 and the header). */
function cellAt(row: number, column: number): HTMLElement {
  const cell = document.querySelector<HTMLElement>(
    `[role="row"][aria-rowindex="${row + 2}"] [role="gridcell"][aria-colindex="${column + 1}"]`,
  );
  if (!cell) throw new Error(`no cell at ${row}:${column}`);
  return cell;
}

const tabStops = () =>
  [...document.querySelectorAll<HTMLElement>('[role="gridcell"]')].filter((cell) => cell.tabIndex === 0);

/** Columns when editable: select 0, title 1, SKU 2, barcode 3, price 4, cost 5, image 6, status 7. */
const SKU = 2;
const BARCODE = 3;
const PRICE = 4;
const COST = 5;
const IMAGE = 6;
const STATUS = 7;

beforeEach(() => {
  // happy-dom lays nothing out: the scrolling frame is given the size a browser would give it
  // (28rem), as @tanstack/react-virtual's testing notes suggest.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(448);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1024);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('VariantGrid', () => {
  it('is an ARIA grid with one tab stop that the arrow keys move', async () => {
    const person = userEvent.setup();
    render(<Harness initial={latte} />);
    const grid = screen.getByRole('grid');
    expect(grid.getAttribute('aria-rowcount')).toBe('5');
    expect(screen.getAllByRole('row')).toHaveLength(5);
    expect(tabStops()).toEqual([cellAt(0, 0)]);

    await person.click(cellAt(0, 1));
    expect(document.activeElement).toBe(cellAt(0, 1));
    await person.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(cellAt(0, SKU));
    await person.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(cellAt(2, SKU));
    await person.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(cellAt(2, 1));
    await person.keyboard('{End}');
    expect(document.activeElement).toBe(cellAt(2, STATUS));
    await person.keyboard('{Home}');
    expect(document.activeElement).toBe(cellAt(2, 0));
    await person.keyboard('{Control>}{End}{/Control}');
    expect(document.activeElement).toBe(cellAt(3, STATUS));
    // Past the edges it stays.
    await person.keyboard('{ArrowDown}{ArrowRight}');
    expect(document.activeElement).toBe(cellAt(3, STATUS));
    expect(tabStops()).toEqual([cellAt(3, STATUS)]);
  });

  it('swaps left and right in a right-to-left page', async () => {
    const person = userEvent.setup();
    render(
      <div dir="rtl">
        <Harness initial={latte} />
      </div>,
    );
    await person.click(cellAt(1, 1));
    await person.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(cellAt(1, SKU));
    await person.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(cellAt(1, BARCODE));
    await person.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(cellAt(1, 1));
  });

  it('typing into a SKU cell and Enter changes that variant only', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} />);
    await person.click(cellAt(1, SKU));
    await person.keyboard('L-S-SOY');
    const editor = within(cellAt(1, SKU)).getByRole('textbox');
    expect(editor).toBe(document.activeElement);
    expect((editor as HTMLInputElement).value).toBe('L-S-SOY');
    expect(onChange).not.toHaveBeenCalled();

    await person.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next[1]).toEqual({ ...latte[1], sku: 'L-S-SOY' });
    for (const index of [0, 2, 3]) expect(next[index]).toBe(latte[index]);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(document.activeElement).toBe(cellAt(1, SKU));
    expect(cellAt(1, SKU).textContent).toBe('L-S-SOY');
  });

  it('Enter edits the value in place, Escape cancels, Tab commits and moves on', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} />);
    await person.click(cellAt(0, SKU));
    await person.keyboard('{Enter}');
    expect((within(cellAt(0, SKU)).getByRole('textbox') as HTMLInputElement).value).toBe('L-S-OAT');
    await person.keyboard('-X{Escape}');
    expect(onChange).not.toHaveBeenCalled();
    expect(cellAt(0, SKU).textContent).toBe('L-S-OAT');
    expect(document.activeElement).toBe(cellAt(0, SKU));

    await person.keyboard('{Enter}-2{Tab}');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect((onChange.mock.calls[0]![0] as VariantRow[])[0]?.sku).toBe('L-S-OAT-2');
    expect(document.activeElement).toBe(cellAt(0, BARCODE));
  });

  it('pasting a block of 2 rows × 4 columns fills cells right and down from the cell', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} />);
    await person.click(cellAt(1, SKU));
    // As a spreadsheet copies it: tabs between cells, a line break after each row.
    await person.paste('S-SOY\t96385074\t12.50\t\r\nL-OAT\t036000291452\t1,180\t7.25\r\n');

    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next[1]).toEqual({ ...latte[1], sku: 'S-SOY', barcode: '96385074', price: 1250 });
    expect(next[2]).toEqual({
      ...latte[2],
      sku: 'L-OAT',
      barcode: '036000291452',
      price: 118_000,
      cost: 725,
    });
    expect(next[0]).toBe(latte[0]);
    expect(next[3]).toBe(latte[3]);
    expect(cellAt(2, BARCODE).textContent).toBe('036000291452');
  });

  it('shows the translated barcode error in the cell while the check digit is wrong', async () => {
    const person = userEvent.setup();
    render(<Harness initial={latte} />);
    const message = i18next.t('validation.BARCODE_IS_INVALID');
    expect(within(cellAt(2, BARCODE)).queryByText(message)).toBeNull();

    await person.click(cellAt(2, BARCODE));
    await person.keyboard('{Backspace}');
    await person.keyboard('4006381333932{Enter}');
    expect(within(cellAt(2, BARCODE)).getByText(message)).toBeTruthy();
    expect(cellAt(2, BARCODE).getAttribute('aria-invalid')).toBe('true');

    await person.keyboard('{Enter}{Backspace}1{Enter}');
    expect(within(cellAt(2, BARCODE)).queryByText(message)).toBeNull();
    expect(cellAt(2, BARCODE).getAttribute('aria-invalid')).toBeNull();
  });

  it("shows the server's messages under their cells", () => {
    render(<Harness initial={latte} errors={{ 'key-3': { sku: 'Another variant already has this SKU' } }} />);
    expect(within(cellAt(3, SKU)).getByText('Another variant already has this SKU')).toBeTruthy();
    expect(cellAt(3, SKU).getAttribute('aria-invalid')).toBe('true');
    expect(cellAt(0, SKU).getAttribute('aria-invalid')).toBeNull();
  });

  it("chooses a variant's image among the product's images", async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} />);
    await person.click(within(cellAt(0, IMAGE)).getByRole('button'));
    const menu = await screen.findByRole('dialog');
    const second = within(menu)
      .getAllByRole('button', { name: text('imageNumber', { number: 2 }) })
      .find((button) => button.querySelector(`img[src="${productImages[1]}"]`));
    await person.click(second!);
    expect((onChange.mock.calls[0]![0] as VariantRow[])[0]?.images).toEqual([productImages[1]]);
    expect(cellAt(0, IMAGE).querySelector('img')?.getAttribute('src')).toBe(productImages[1]);
  });

  it('selects rows with the checkboxes and toggles the status with Space', async () => {
    const person = userEvent.setup();
    const onSelectionChange = vi.fn();
    const onChange = vi.fn();
    render(<Harness initial={latte} onSelectionChange={onSelectionChange} onChange={onChange} />);
    await person.click(within(cellAt(1, 0)).getByRole('checkbox'));
    expect([...(onSelectionChange.mock.calls.at(-1)![0] as Set<string>)]).toEqual(['id-1']);
    await person.keyboard('{ArrowDown}{ArrowDown} ');
    expect([...(onSelectionChange.mock.calls.at(-1)![0] as Set<string>)]).toEqual(['id-1', 'id-3']);
    expect(screen.getAllByRole('row', { selected: true })).toHaveLength(2);

    await person.keyboard('{End} ');
    expect((onChange.mock.calls[0]![0] as VariantRow[])[3]?.status).toBe('active');
    expect(within(cellAt(3, STATUS)).getByRole('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('keeps fewer than 200 rows in the DOM with 2,048 variants, and reaches the last one', async () => {
    const person = userEvent.setup();
    const many = Array.from({ length: 2048 }, (_, index) =>
      variant(index, `Size ${index}, Milk ${index % 3}`),
    );
    render(<Harness initial={many} />);
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('2049');
    const rendered = () => screen.getAllByRole('row').length - 1;
    // The rows in view (28rem frame, 56px rows) and a few around them, not all 2,048.
    expect(rendered()).toBeGreaterThanOrEqual(7);
    expect(rendered()).toBeLessThan(200);

    await person.click(cellAt(0, 1));
    await person.keyboard('{Control>}{End}{/Control}');
    expect(document.activeElement).toBe(cellAt(2047, STATUS));
    expect(document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('2049');
    expect(rendered()).toBeLessThan(200);
    expect(tabStops()).toHaveLength(1);
  });

  it('types a price in Arabic-Indic digits and shows it in the member’s digits', async () => {
    await i18next.changeLanguage('ar');
    try {
      const person = userEvent.setup();
      const onChange = vi.fn();
      render(<Harness initial={latte} onChange={onChange} />);
      await person.click(cellAt(1, PRICE));
      await person.keyboard('١٢٫٥{Enter}');
      expect((onChange.mock.calls[0]![0] as VariantRow[])[1]?.price).toBe(1250);
      expect(cellAt(1, PRICE).textContent).toBe('١٢٫٥٠');
      // Amounts and codes are isolated left-to-right runs inside the Arabic page.
      expect(cellAt(0, SKU).querySelector('bdi[dir="ltr"]')?.textContent).toBe('L-S-OAT');
      expect(cellAt(1, PRICE).querySelector('bdi[dir="ltr"]')).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('keeps a bad amount in its cell with the message, announced, and does not take it', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    const onInvalidCountChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} onInvalidCountChange={onInvalidCountChange} />);
    const message = i18next.t('validation.MONEY_TOO_MANY_DECIMALS');
    await person.click(cellAt(1, PRICE));
    await person.keyboard('12.505{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(cellAt(1, PRICE).textContent).toContain('12.505');
    expect(within(cellAt(1, PRICE)).getByText(message)).toBeTruthy();
    expect(cellAt(1, PRICE).getAttribute('aria-invalid')).toBe('true');
    // The whole message, named, under the grid in a live region.
    const live = document.querySelector('[aria-live="polite"]:not([role])');
    expect(live?.textContent).toBe(
      text('cellIssue', { title: 'Small, Soy', column: text('columnPrice'), message }),
    );
    expect(onInvalidCountChange).toHaveBeenLastCalledWith(1);

    await person.keyboard('{Enter}');
    expect((within(cellAt(1, PRICE)).getByRole('textbox') as HTMLInputElement).value).toBe('12.505');
    await person.keyboard('{Backspace}{Enter}');
    expect((onChange.mock.calls[0]![0] as VariantRow[])[1]?.price).toBe(1250);
    expect(cellAt(1, PRICE).getAttribute('aria-invalid')).toBeNull();
    expect(onInvalidCountChange).toHaveBeenLastCalledWith(0);
  });

  it('a blank cost removes it; a blank price is refused', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={[variant(0, 'Small', { price: 500, cost: 300 })]} onChange={onChange} />);
    await person.click(cellAt(0, COST));
    await person.keyboard('{Delete}');
    expect((onChange.mock.calls[0]![0] as VariantRow[])[0]?.cost).toBeNull();
    await person.click(cellAt(0, PRICE));
    await person.keyboard('{Enter}{Control>}a{/Control}{Backspace}{Enter}');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(within(cellAt(0, PRICE)).getByText(i18next.t('validation.MONEY_IS_INVALID'))).toBeTruthy();
  });

  it('pasting a column of 12 prices into the first price cell fills the column downward', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    const twelve = Array.from({ length: 12 }, (_, index) => variant(index, `V${index}`));
    render(<Harness initial={twelve} onChange={onChange} />);
    await person.click(cellAt(0, PRICE));
    await person.paste(
      `${Array.from({ length: 12 }, (_, index) => `${120 + index * 5}.00`).join('\r\n')}\r\n`,
    );
    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next.map((row) => row.price)).toEqual(
      Array.from({ length: 12 }, (_, index) => 12_000 + index * 500),
    );
    expect(next.map((row) => row.sku)).toEqual(twelve.map(() => null));
  });

  it('a pasted text that is not an amount leaves its cell and says so', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} />);
    await person.click(cellAt(0, PRICE));
    await person.paste('15\nfifteen\n-3\n');
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next.map((row) => row.price)).toEqual([1500, 0, 0, 0]);
    expect(within(cellAt(1, PRICE)).getByText(i18next.t('validation.MONEY_IS_INVALID'))).toBeTruthy();
    expect(within(cellAt(2, PRICE)).getByText(i18next.t('validation.MONEY_IS_NEGATIVE'))).toBeTruthy();
    expect(screen.getByText(text('pasteSkipped', { count: 2 }))).toBeTruthy();
  });

  it('shows a barcode’s whole message under the grid while its cell is active', async () => {
    const person = userEvent.setup();
    render(<Harness initial={[variant(0, 'Small', { barcode: '4006381333932' })]} />);
    const message = i18next.t('validation.BARCODE_IS_INVALID');
    await person.click(cellAt(0, BARCODE));
    const live = document.querySelector('[aria-live="polite"]:not([role])');
    expect(live?.textContent).toBe(
      text('cellIssue', { title: 'Small', column: text('columnBarcode'), message }),
    );
    expect(cellAt(0, BARCODE).getAttribute('aria-describedby')).toBe(
      within(cellAt(0, BARCODE)).getByText(message).id,
    );
  });

  describe('on a phone', () => {
    beforeEach(() => {
      vi.spyOn(window, 'matchMedia').mockImplementation(
        (query: string) =>
          ({
            matches: query === compactQuery,
            media: query,
            addEventListener: () => {},
            removeEventListener: () => {},
          }) as unknown as MediaQueryList,
      );
    });

    it("draws each variant as a card titled 'product - values', its fields named, the same keys", async () => {
      const person = userEvent.setup();
      const onChange = vi.fn();
      render(<Harness initial={latte} onChange={onChange} />);
      const card = screen.getAllByRole('row').find((row) => row.getAttribute('aria-rowindex') === '3')!;
      expect(within(card).getByText('Latte - Small, Soy')).toBeTruthy();
      expect(within(card).getByText(text('columnSku'))).toBeTruthy();
      expect(within(card).getByText(text('columnPrice'))).toBeTruthy();
      expect(cellAt(1, PRICE).style.gridArea).toBe('price');
      // The header row is still there for screen readers.
      expect(screen.getAllByRole('columnheader')).toHaveLength(8);

      await person.click(cellAt(1, SKU));
      await person.keyboard('{ArrowRight}');
      expect(document.activeElement).toBe(cellAt(1, BARCODE));
      await person.keyboard('{ArrowRight}42{Enter}');
      expect((onChange.mock.calls[0]![0] as VariantRow[])[1]?.price).toBe(4200);
      expect(cellAt(1, PRICE).textContent).toContain('42.00');
    });

    it('keeps fewer than 200 cards in the DOM with 2,048 variants', async () => {
      const person = userEvent.setup();
      const many = Array.from({ length: 2048 }, (_, index) => variant(index, `Size ${index}`));
      render(<Harness initial={many} />);
      const rendered = () => screen.getAllByRole('row').length - 1;
      expect(rendered()).toBeGreaterThanOrEqual(2);
      expect(rendered()).toBeLessThan(200);
      await person.click(cellAt(0, 1));
      await person.keyboard('{Control>}{End}{/Control}');
      expect(document.activeElement).toBe(cellAt(2047, STATUS));
      expect(rendered()).toBeLessThan(200);
    });
  });

  it('read-only: no inputs, and typing changes nothing', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<Harness initial={latte} readOnly onChange={onChange} />);
    expect(screen.getByRole('grid').getAttribute('aria-readonly')).toBe('true');
    expect(container.querySelectorAll('input, button, select, textarea')).toHaveLength(0);
    expect(within(cellAt(0, 1)).getByText('L-S-OAT')).toBeTruthy();

    await person.click(cellAt(0, 1));
    await person.keyboard('X{Enter}{Delete} ');
    await person.paste('A\tB');
    expect(container.querySelectorAll('input, button, select, textarea')).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();
    // Still navigable.
    await person.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(cellAt(0, 0));
  });
});

describe('VariantBulkEditBar', () => {
  it('applies a SKU pattern to the selected variants only', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} bulkBar />);
    await person.click(within(cellAt(1, 0)).getByRole('checkbox'));
    await person.click(within(cellAt(3, 0)).getByRole('checkbox'));
    expect(screen.getByText(text('selectedCount', { count: 2 }))).toBeTruthy();

    const pattern = screen.getByLabelText(text('skuPattern'));
    await person.clear(pattern);
    await person.type(pattern, '{{code}-{{n}-{{values}');
    await person.click(screen.getByRole('button', { name: text('apply') }));

    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next.map((row) => row.sku)).toEqual(['L-S-OAT', 'LATTE-1-SMALL-SOY', null, 'LATTE-2-LARGE-SOY']);
    expect(next[0]).toBe(latte[0]);
    expect(next[2]).toBe(latte[2]);
    expect(cellAt(3, SKU).textContent).toBe('LATTE-2-LARGE-SOY');
  });

  it('raises the selected prices by 10 %, rounded half-up to the piastre', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    const priced = [
      variant(0, 'Small', { price: 1005 }),
      variant(1, 'Medium', { price: 1500 }),
      variant(2, 'Large', { price: 2000 }),
    ];
    render(<Harness initial={priced} onChange={onChange} bulkBar />);
    await person.click(within(cellAt(0, 0)).getByRole('checkbox'));
    await person.click(within(cellAt(1, 0)).getByRole('checkbox'));
    await person.selectOptions(screen.getByLabelText(text('field')), 'price');
    await person.selectOptions(screen.getByLabelText(text('moneyChange')), 'percent');
    await person.type(screen.getByLabelText(text('percent')), '10');
    await person.click(screen.getByRole('button', { name: text('apply') }));
    const next = onChange.mock.calls[0]![0] as VariantRow[];
    expect(next.map((row) => row.price)).toEqual([1106, 1650, 2000]);
    expect(screen.getByText(text('appliedCount', { count: 2 }))).toBeTruthy();
    expect(cellAt(0, PRICE).textContent).toBe('11.06');
  });

  it('refuses a subtraction that would take a price below zero, changing nothing', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    const priced = [variant(0, 'Small', { price: 2000 }), variant(1, 'Medium', { price: 500 })];
    render(<Harness initial={priced} onChange={onChange} bulkBar />);
    await person.selectOptions(screen.getByLabelText(text('field')), 'price');
    await person.selectOptions(screen.getByLabelText(text('moneyChange')), 'subtract');
    await person.type(screen.getByLabelText(text('amount', { currency: 'EGP' })), '10');
    await person.click(screen.getByRole('button', { name: text('apply') }));
    expect(onChange).not.toHaveBeenCalled();
    expect(
      screen.getByText(
        text('refused', { field: text('fieldPrice'), title: 'Medium', problem: text('refusedNegative') }),
      ),
    ).toBeTruthy();
  });

  it('tells a bad amount or percentage under its box and does not apply it', async () => {
    const person = userEvent.setup();
    render(<Harness initial={latte} bulkBar />);
    await person.selectOptions(screen.getByLabelText(text('field')), 'cost');
    await person.selectOptions(screen.getByLabelText(text('moneyChange')), 'set');
    await person.type(screen.getByLabelText(text('amount', { currency: 'EGP' })), '1.234');
    expect(screen.getByText(i18next.t('validation.MONEY_TOO_MANY_DECIMALS'))).toBeTruthy();
    expect(screen.getByRole('button', { name: text('apply') }).hasAttribute('disabled')).toBe(true);
    await person.selectOptions(screen.getByLabelText(text('moneyChange')), 'percent');
    await person.clear(screen.getByLabelText(text('percent')));
    await person.type(screen.getByLabelText(text('percent')), '-150');
    expect(screen.getByText(text('percentInvalid'))).toBeTruthy();
  });

  it('with nothing selected applies to all; a wrong barcode cannot be applied', async () => {
    const person = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initial={latte} onChange={onChange} bulkBar />);
    await person.selectOptions(screen.getByLabelText(text('field')), 'status');
    await person.selectOptions(screen.getByLabelText(text('fieldStatus')), 'inactive');
    await person.click(screen.getByRole('button', { name: text('apply') }));
    expect((onChange.mock.calls[0]![0] as VariantRow[]).map((row) => row.status)).toEqual([
      'inactive',
      'inactive',
      'inactive',
      'inactive',
    ]);

    await person.selectOptions(screen.getByLabelText(text('field')), 'barcode');
    await person.type(screen.getByLabelText(text('fieldBarcode')), '4006381333932');
    expect(screen.getByText(i18next.t('validation.BARCODE_IS_INVALID'))).toBeTruthy();
    expect(screen.getByRole('button', { name: text('apply') }).hasAttribute('disabled')).toBe(true);
  });
});

describe('the grid model', () => {
  it('reads a block as spreadsheets copy it', () => {
    expect(parseClipboardBlock('A\tB\r\nC\tD\r\n')).toEqual([
      ['A', 'B'],
      ['C', 'D'],
    ]);
    expect(parseClipboardBlock('A\n\nB')).toEqual([['A'], [''], ['B']]);
    expect(parseClipboardBlock('only')).toEqual([['only']]);
  });

  it('pastes statuses by name, skips what does not fit, and stops at the last row', () => {
    const statusOf = (value: string) =>
      value === 'Inactive' ? ('inactive' as const) : value === 'Active' ? ('active' as const) : null;
    const columns = ['select', 'title', 'sku', 'barcode', 'image', 'status'] as const;
    const result = pasteBlock(
      latte,
      parseClipboardBlock('/files/elsewhere.png\tInactive\textra\n\tmaybe\n/files/side.png\tActive\n'),
      { row: 2, column: 4, columns, productImages, statusOf, currency: 'EGP' },
    );
    // Row 2: an image the product does not have is left out; row 3: cleared image, unknown status kept.
    expect(result.variants[2]).toEqual({ ...latte[2], status: 'inactive' });
    expect(result.variants[3]).toBe(latte[3]);
    expect(result.variants).toHaveLength(4);
    expect(result.changed).toBe(1);
  });
});
