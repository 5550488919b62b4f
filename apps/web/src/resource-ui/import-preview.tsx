import type { ImportMapping, ImportPreview } from '@dukkan/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../components/ui/select.tsx';

type LooseTranslate = (key: string, values?: Record<string, unknown>) => string;

/** The select's value of "Do not import" (a column key is never empty). */
const skipped = '';

/**
 * The file's first rows under its headers, each header with the column it fills: a native select
 * per column (the list's columns named in the reader's language, and "Do not import"), which the
 * member corrects. A column proposed as the workspace last chose it for this list, not as its
 * name matches, says so under its select while the choice is still that one (decision 0046). The table scrolls sideways inside its box on a narrow screen; its order follows
 * the page's direction.
 */
export function ImportPreviewTable({
  preview,
  mapping,
  onChange,
}: {
  preview: ImportPreview;
  mapping: ImportMapping;
  onChange: (mapping: ImportMapping) => void;
}) {
  const { t: typed } = useTranslation();
  const t = typed as unknown as LooseTranslate;
  const titleId = useId();
  const rememberedId = (index: number) => `${titleId}-remembered-${index}`;
  const proposedFor = (header: string) =>
    preview.remembered.includes(header) && mapping[header] === preview.mapping[header];
  const cell = (value: string | number | null) => (value === null ? '' : String(value));
  return (
    <section className="space-y-2" aria-labelledby={titleId}>
      <h3 id={titleId} className="text-sm font-semibold">
        {t('resourceList.import.preview.title')}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t('resourceList.import.preview.hint')}</p>
      {/* Scrolls sideways on a narrow screen; each column's select, reached by Tab, brings it into view. */}
      <div className="max-h-80 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="min-w-full text-start text-sm">
          <caption className="sr-only">{t('resourceList.import.preview.caption')}</caption>
          <thead className="sticky top-0 z-10 bg-slate-50 dark:bg-slate-800">
            <tr>
              {preview.headers.map((header, index) => (
                <th
                  // Headers may repeat or be empty: a column is its place in the file.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  key={index}
                  scope="col"
                  className="min-w-44 px-3 py-2 text-start align-top font-semibold"
                >
                  <span className="mb-1.5 block truncate" title={header}>
                    {header}
                  </span>
                  {header !== '' && (
                    <Select
                      aria-label={t('resourceList.import.preview.columnFor', { header })}
                      aria-describedby={proposedFor(header) ? rememberedId(index) : undefined}
                      value={mapping[header] ?? skipped}
                      onChange={(event) =>
                        onChange({
                          ...mapping,
                          [header]: event.target.value === skipped ? null : event.target.value,
                        })
                      }
                      className="h-9 font-normal"
                    >
                      <option value={skipped}>{t('resourceList.import.preview.skip')}</option>
                      {preview.targets.map((target) => (
                        <option key={target.key} value={target.key}>
                          {target.label}
                        </option>
                      ))}
                    </Select>
                  )}
                  {header !== '' && proposedFor(header) && (
                    <span
                      id={rememberedId(index)}
                      className="mt-1 block text-xs font-normal text-slate-600 dark:text-slate-300"
                    >
                      {t('resourceList.import.preview.remembered')}
                    </span>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((cells, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the file's rows, in their order
              <tr key={row} className="border-t border-slate-200 dark:border-slate-700">
                {preview.headers.map((_, column) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its place in the row
                    key={column}
                    dir="auto"
                    className={`max-w-60 truncate px-3 py-1.5 ${mapping[preview.headers[column] ?? ''] ? '' : 'text-slate-500 dark:text-slate-400'}`}
                  >
                    {cell(cells[column] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
