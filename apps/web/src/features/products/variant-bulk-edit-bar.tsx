import {
  applyVariantBulkEdit,
  barcodeIssue,
  expandSkuPattern,
  type MoneyChange,
  normalizeBarcode,
  parseMoneyInput,
  parseNumberInput,
  type VariantBulkEdit,
  type VariantRow,
  type VariantRowStatus,
} from '@dukkan/contract';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { useMessageText } from '../../lib/message-text.ts';
import { VariantImagePicker } from './variant-image-picker.tsx';
import { useVariantTexts } from './variant-texts.ts';

type BulkField = 'sku' | 'barcode' | 'price' | 'cost' | 'image' | 'status';
type MoneyMode = MoneyChange['kind'];

/**
 * A percentage as typed ('10', '-12.5', '١٠٫٥'): from -100 up, at most four decimals (what
 * `applyMoneyChange` keeps); null when it is not one.
 */
function parsePercentInput(typed: string): number | null {
  const value = parseNumberInput(typed.replace(/[%\u066a\s]/g, '').replace(/\u2212/g, '-'));
  if (typeof value !== 'number' || !Number.isFinite(value) || value < -100) return null;
  return Math.abs(Math.round(value * 10_000) - value * 10_000) < 1e-6 ? value : null;
}

interface VariantBulkEditBarProps<V extends VariantRow> {
  variants: readonly V[];
  /** The selected variants' ids (the grid's selection). */
  selection: ReadonlySet<string>;
  /** The product's code, for `{code}` in a SKU pattern. */
  productCode: string;
  productImages: readonly string[];
  /** The workspace's base currency: an amount is typed with its decimals. */
  currency: string;
  onChange: (next: V[]) => void;
}

/**
 * Sets one thing on many variants at once: SKUs from a pattern, a barcode, one of the product's
 * images or the status, on the selected variants or on all of them (applyVariantBulkEdit).
 */
export function VariantBulkEditBar<V extends VariantRow>({
  variants,
  selection,
  productCode,
  productImages,
  currency,
  onChange,
}: VariantBulkEditBarProps<V>) {
  const text = useVariantTexts();
  const messageText = useMessageText();
  const id = useId();
  const [chosenScope, setChosenScope] = useState<'selected' | 'all' | null>(null);
  const [field, setField] = useState<BulkField>('sku');
  const [pattern, setPattern] = useState('{code}-{n}');
  const [barcode, setBarcode] = useState('');
  // undefined: no image chosen yet (Apply waits); null: remove the images.
  const [image, setImage] = useState<string | null | undefined>(undefined);
  const [status, setStatus] = useState<VariantRowStatus>('active');
  const [moneyMode, setMoneyMode] = useState<MoneyMode>('percent');
  const [moneyText, setMoneyText] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  // A refused change is an error, not a note.
  const [refusedShown, setRefusedShown] = useState(false);

  const selectedIds = variants.filter((variant) => selection.has(variant.id)).map((variant) => variant.id);
  // With nothing selected the edit can only go to all; once something is, it goes there unless told otherwise.
  const scope = selectedIds.length === 0 ? 'all' : (chosenScope ?? 'selected');
  const targets = scope === 'all' ? variants : variants.filter((variant) => selection.has(variant.id));

  const barcodeError = barcodeIssue(normalizeBarcode(barcode)) ?? undefined;
  const moneyField = field === 'price' || field === 'cost';
  const percent = moneyMode === 'percent' ? parsePercentInput(moneyText) : null;
  const amount = moneyMode === 'percent' ? null : parseMoneyInput(moneyText, currency);
  const moneyChange: MoneyChange | null =
    moneyText.trim() === ''
      ? null
      : moneyMode === 'percent'
        ? percent === null
          ? null
          : { kind: 'percent', percent }
        : amount?.ok && amount.minor !== null
          ? { kind: moneyMode, amount: amount.minor }
          : null;
  const moneyError =
    moneyText.trim() === ''
      ? undefined
      : moneyMode === 'percent'
        ? percent === null
          ? text('percentInvalid')
          : undefined
        : amount && !amount.ok
          ? messageText(amount.code)
          : undefined;
  const firstTarget = targets[0];
  const preview =
    field === 'sku' && firstTarget && pattern.trim() !== ''
      ? expandSkuPattern(pattern, {
          code: productCode,
          position: 1,
          count: targets.length,
          title: firstTarget.title,
        })
      : null;

  const edit: VariantBulkEdit | null =
    field === 'sku'
      ? pattern.trim() === ''
        ? null
        : { sku: { pattern } }
      : field === 'barcode'
        ? barcodeError
          ? null
          : { barcode: normalizeBarcode(barcode) || null }
        : moneyField
          ? moneyChange
            ? { [field]: moneyChange }
            : null
          : field === 'image'
            ? image === undefined
              ? null
              : { image }
            : { status };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!edit || targets.length === 0) return;
    const result = applyVariantBulkEdit(variants, edit, {
      targets: scope === 'all' ? 'all' : selectedIds,
      productCode,
    });
    const refusedTitle =
      result.refused && variants.find((variant) => variant.id === result.refused?.id)?.title;
    setRefusedShown(Boolean(result.refused));
    setOutcome(
      result.refused
        ? text('refused', {
            field: text(result.refused.field === 'price' ? 'fieldPrice' : 'fieldCost'),
            title: refusedTitle ?? '',
            problem: text(
              result.refused.code === 'MONEY_IS_NEGATIVE' ? 'refusedNegative' : 'refusedTooLarge',
            ),
          })
        : result.changed.length === 0
          ? text('nothingChanged')
          : text('appliedCount', { count: result.changed.length }),
    );
    if (result.changed.length > 0) onChange(result.variants);
  };

  return (
    <form
      aria-label={text('bulkLabel')}
      onSubmit={apply}
      className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-900/60"
    >
      <div className="flex flex-wrap items-end gap-3">
        <p
          className="me-auto self-center text-sm font-semibold text-slate-700 dark:text-slate-200"
          aria-live="polite"
        >
          {text('selectedCount', { count: selectedIds.length })}
        </p>
        <div className="w-52">
          <Field id={`${id}-scope`} label={text('applyTo')}>
            {(control) => (
              <Select
                {...control}
                value={scope}
                onChange={(event) => setChosenScope(event.target.value === 'all' ? 'all' : 'selected')}
              >
                <option value="selected" disabled={selectedIds.length === 0}>
                  {text('applyToSelected', { count: selectedIds.length })}
                </option>
                <option value="all">{text('applyToAll', { count: variants.length })}</option>
              </Select>
            )}
          </Field>
        </div>
        <div className="w-52">
          <Field id={`${id}-field`} label={text('field')}>
            {(control) => (
              <Select
                {...control}
                value={field}
                onChange={(event) => {
                  setField(event.target.value as BulkField);
                  setOutcome(null);
                }}
              >
                <option value="sku">{text('fieldSku')}</option>
                <option value="barcode">{text('fieldBarcode')}</option>
                <option value="price">{text('fieldPrice')}</option>
                <option value="cost">{text('fieldCost')}</option>
                <option value="image">{text('fieldImage')}</option>
                <option value="status">{text('fieldStatus')}</option>
              </Select>
            )}
          </Field>
        </div>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          {field === 'sku' && (
            <Field
              id={`${id}-pattern`}
              label={text('skuPattern')}
              hint={
                preview
                  ? `${text('skuPatternHint')} ${text('skuPreview', { sku: preview })}`
                  : text('skuPatternHint')
              }
            >
              {(control) => (
                <Input
                  {...control}
                  dir="ltr"
                  value={pattern}
                  onChange={(event) => setPattern(event.target.value)}
                />
              )}
            </Field>
          )}
          {field === 'barcode' && (
            <Field
              id={`${id}-barcode`}
              label={text('fieldBarcode')}
              hint={text('barcodeHint')}
              error={barcodeError}
            >
              {(control) => (
                <Input
                  {...control}
                  dir="ltr"
                  inputMode="numeric"
                  value={barcode}
                  onChange={(event) => setBarcode(event.target.value)}
                />
              )}
            </Field>
          )}
          {moneyField && (
            <div className="flex flex-wrap items-start gap-3">
              <div className="w-56">
                <Field id={`${id}-money-mode`} label={text('moneyChange')}>
                  {(control) => (
                    <Select
                      {...control}
                      value={moneyMode}
                      onChange={(event) => {
                        setMoneyMode(event.target.value as MoneyMode);
                        setOutcome(null);
                      }}
                    >
                      <option value="set">{text('changeSet')}</option>
                      <option value="add">{text('changeAdd')}</option>
                      <option value="subtract">{text('changeSubtract')}</option>
                      <option value="percent">{text('changePercent')}</option>
                    </Select>
                  )}
                </Field>
              </div>
              <div className="min-w-40 flex-1">
                <Field
                  id={`${id}-money`}
                  label={moneyMode === 'percent' ? text('percent') : text('amount', { currency })}
                  hint={moneyMode === 'percent' ? text('percentHint') : undefined}
                  error={moneyError}
                >
                  {(control) => (
                    <Input
                      {...control}
                      dir="ltr"
                      inputMode={moneyMode === 'percent' ? 'text' : 'decimal'}
                      autoComplete="off"
                      value={moneyText}
                      onChange={(event) => {
                        setMoneyText(event.target.value);
                        setOutcome(null);
                      }}
                    />
                  )}
                </Field>
              </div>
            </div>
          )}
          {field === 'image' && (
            <fieldset>
              <legend className="mb-1.5 text-sm font-semibold text-slate-700 dark:text-slate-200">
                {text('fieldImage')}
              </legend>
              <VariantImagePicker images={productImages} value={image} onChoose={setImage} />
            </fieldset>
          )}
          {field === 'status' && (
            <Field id={`${id}-status`} label={text('fieldStatus')}>
              {(control) => (
                <Select
                  {...control}
                  value={status}
                  onChange={(event) => setStatus(event.target.value as VariantRowStatus)}
                >
                  <option value="active">{text('active')}</option>
                  <option value="inactive">{text('inactive')}</option>
                </Select>
              )}
            </Field>
          )}
        </div>
        <Button type="submit" disabled={!edit || targets.length === 0}>
          {text('apply')}
        </Button>
      </div>
      <p
        role="status"
        className={
          refusedShown
            ? 'text-sm font-semibold text-red-700 dark:text-red-400'
            : 'text-sm text-slate-600 empty:hidden dark:text-slate-400'
        }
      >
        {outcome}
      </p>
    </form>
  );
}
