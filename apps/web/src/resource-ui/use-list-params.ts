import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type ListDefinition, type ListParams, readListParams, writeListParams } from './list-params.ts';

type ListParamsUpdate = Partial<ListParams>;

/**
 * The list state in the address bar. Any change other than the page itself goes back to page 1;
 * `replace` corrects the address without a history entry (a page past the end).
 */
export function useListParams(definition: ListDefinition) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readListParams(searchParams, definition), [searchParams, definition]);
  const update = useCallback(
    (patch: ListParamsUpdate, { replace = false }: { replace?: boolean } = {}) => {
      setSearchParams(
        (current) => {
          const now = readListParams(current, definition);
          const next: ListParams = { ...now, ...(patch.page === undefined ? { page: 1 } : {}), ...patch };
          return writeListParams(current, next, definition);
        },
        { replace },
      );
    },
    [setSearchParams, definition],
  );
  return [params, update] as const;
}
