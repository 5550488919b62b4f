import { numberFormat } from '@dukkan/contract';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/class-names.ts';
import { collapseList } from './collapse-list.ts';

/** A cell's list of names (chips) shows at most this many; of lines (hours, phones), this many lines. */
export const compactLimits = { names: 5, lines: 3 } as const;

interface CompactListItem {
  key: string;
  node: ReactNode;
}

/**
 * A list in a table cell kept to a few lines (a week of working hours, a brand's currencies): past
 * `limit` lines it shows the first items and a "+N more" button that unfolds the rest in place
 * (and folds them again); `summary`, the whole list as text, is its tooltip. `lines` puts one item
 * a line, `inline` wraps them like words (chips).
 */
export function CompactList({
  items,
  limit,
  layout = 'lines',
  summary,
  className,
}: {
  items: readonly CompactListItem[];
  limit: number;
  layout?: 'lines' | 'inline';
  summary?: string;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const { shown, hidden } = collapseList(items.length, limit);
  const visible = expanded || hidden === 0 ? items : items.slice(0, shown);
  const more = numberFormat(i18n.language).format(hidden);
  return (
    <ul
      id={id}
      title={hidden > 0 && !expanded ? summary : undefined}
      className={cn(layout === 'inline' ? 'flex flex-wrap items-center gap-1' : 'space-y-0.5', className)}
    >
      {visible.map((item) => (
        <li key={item.key}>{item.node}</li>
      ))}
      {hidden > 0 && (
        <li>
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={id}
            onClick={() => setExpanded((open) => !open)}
            className="rounded-sm text-xs font-semibold whitespace-nowrap text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300"
          >
            {expanded ? t('resourceList.showLess') : t('resourceList.moreItems', { more })}
          </button>
        </li>
      )}
    </ul>
  );
}
