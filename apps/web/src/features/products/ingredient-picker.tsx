import { type ProductRecord, pickLocalized, productsResource } from '@dukkan/contract';
import { type KeyboardEvent, useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronsUpDownIcon } from '../../components/ui/icons.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/class-names.ts';
import { useResourceList } from '../../resource-ui/use-resource.ts';
import type { IngredientSummary } from './product-form.ts';

/** How many matches the picker lists: a search narrows them, nobody scrolls through more. */
const matchCount = 20;

/** "CODE · Name", the variant's title after the name. */
export function IngredientLabel({ ingredient }: { ingredient: IngredientSummary }) {
  const { i18n } = useTranslation();
  const variant = ingredient.variantTitle ? pickLocalized(ingredient.variantTitle, i18n.language) : null;
  return (
    <span className="flex min-w-0 items-baseline gap-2">
      <bdi className="shrink-0 font-mono text-xs text-slate-600 dark:text-slate-400">{ingredient.code}</bdi>
      <span className="truncate">
        {pickLocalized(ingredient.name, i18n.language)}
        {variant && <span className="text-slate-600 dark:text-slate-400"> – {variant}</span>}
      </span>
    </span>
  );
}

/**
 * A searchable choice of a product (`/api/products?search=…`: code, name, a variant's SKU or
 * barcode, on the server): a button naming the choice opens a search box over a list of matches
 * (the combobox pattern: arrows move, Enter chooses, Escape closes). The product being edited is
 * never offered: a recipe cannot use its own product.
 */
export function IngredientPicker({
  value,
  excludeId,
  onChoose,
  label,
  invalid,
  describedBy,
  id,
}: {
  value: IngredientSummary | null;
  excludeId: string | undefined;
  onChoose: (product: ProductRecord) => void;
  /** The accessible name of the button ("Ingredient, line 2"). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  id?: string;
}) {
  const { t, i18n } = useTranslation();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const search = useDeferredValue(query.trim());
  const matches = useResourceList(
    productsResource,
    { page: 1, pageSize: matchCount, search, sort: productsResource.defaultSort, filters: {} },
    { enabled: open },
  );
  const products = ((matches.data?.data ?? []) as ProductRecord[]).filter(
    (product) => product.id !== excludeId,
  );
  const activeIndex = Math.min(active, Math.max(products.length - 1, 0));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const choose = (product: ProductRecord | undefined) => {
    if (!product) return;
    onChoose(product);
    setOpen(false);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setActive(Math.min(activeIndex + 1, products.length - 1));
    else if (event.key === 'ArrowUp') setActive(Math.max(activeIndex - 1, 0));
    else if (event.key === 'Home' && event.ctrlKey) setActive(0);
    else if (event.key === 'End' && event.ctrlKey) setActive(products.length - 1);
    else if (event.key === 'Enter') choose(products[activeIndex]);
    else return;
    event.preventDefault();
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          aria-label={label}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClassName, 'flex h-10 items-center gap-2 text-start')}
        >
          <span className="min-w-0 flex-1">
            {value ? (
              <IngredientLabel ingredient={value} />
            ) : (
              <span className="text-slate-500 dark:text-slate-400">
                {t('products.recipe.chooseIngredient')}
              </span>
            )}
          </span>
          <ChevronsUpDownIcon className="size-4 shrink-0 text-slate-500" />
        </button>
      </PopoverTrigger>
      <PopoverContent className="w-[min(26rem,calc(100vw-2rem))] p-2" aria-label={label}>
        <input
          type="search"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={products.length > 0 ? optionId(activeIndex) : undefined}
          aria-label={t('products.recipe.searchLabel')}
          placeholder={t('products.recipe.searchLabel')}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className={cn(controlClassName, 'h-10')}
        />
        <div
          id={listId}
          role="listbox"
          aria-label={t('products.recipe.searchLabel')}
          aria-busy={matches.isFetching || undefined}
          className="mt-2 max-h-72 overflow-y-auto"
        >
          {products.map((product, index) => (
            <div
              key={product.id}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === activeIndex}
              onMouseEnter={() => setActive(index)}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(product)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') choose(product);
              }}
              className={cn(
                'flex cursor-pointer items-baseline gap-2 rounded-lg px-2 py-2 text-sm',
                index === activeIndex && 'bg-slate-100 dark:bg-slate-800',
              )}
            >
              <bdi className="shrink-0 font-mono text-xs text-slate-600 dark:text-slate-400">
                {product.code}
              </bdi>
              <span className="truncate">{pickLocalized(product.name, i18n.language)}</span>
            </div>
          ))}
        </div>
        {matches.isPending ? (
          <p
            role="status"
            className="flex items-center gap-2 px-2 py-2 text-sm text-slate-600 dark:text-slate-400"
          >
            <Spinner className="size-4" />
            {t('products.recipe.searching')}
          </p>
        ) : (
          products.length === 0 && (
            <p role="status" className="px-2 py-2 text-sm text-slate-600 dark:text-slate-400">
              {t('products.recipe.noMatch')}
            </p>
          )
        )}
      </PopoverContent>
    </Popover>
  );
}
