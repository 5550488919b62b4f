import {
  type MeasurementUnitRecord,
  measurementUnitsResource,
  type ProductReference,
  pickLocalized,
  type ValidationIssue,
  type VariationTypeRecord,
  variationTypesResource,
} from '@dukkan/contract';
import { useQueries } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { optionListParams, recordName, requireResource } from '../../resource-ui/option-sources.ts';
import { useResourceAccess, useResourceList, useResourceRecord } from '../../resource-ui/use-resource.ts';

/**
 * The names of what the shown product refers to, from its own answer: a reader who may view
 * products but not list units, tags or variation types still sees their names.
 */
const ProductReferences = createContext<Readonly<Record<string, ProductReference>>>({});
export const ProductReferencesProvider = ProductReferences.Provider;

/** What the shown product's answer says of a record it refers to, if anything. */
function useProductReference(id: string | null | undefined): ProductReference | undefined {
  const references = useContext(ProductReferences);
  return id ? references[id] : undefined;
}

/** A refusal's issue in the reader's language, its placeholders filled (RECIPE_CYCLE names the loop). */
export function useIssueText() {
  const { t, i18n } = useTranslation();
  return useCallback(
    (issue: ValidationIssue) => {
      const key = `validation.${issue.message}`;
      return i18n.exists(key)
        ? (t(key as 'validation.RECIPE_CYCLE', issue.params ?? {}) as string)
        : issue.message;
    },
    [t, i18n],
  );
}

/**
 * The workspace's variation types with their values: the first 100 (the list's own order), and
 * any chosen type beyond them fetched alone. `types` holds every one known so far.
 */
export function useVariationTypes(chosenTypeIds: readonly string[]) {
  const { workspaceId, allows } = useResourceAccess(variationTypesResource);
  const list = useResourceList(variationTypesResource, optionListParams(variationTypesResource));
  const listed = list.data?.data as VariationTypeRecord[] | undefined;
  const missing = list.isSuccess ? chosenTypeIds.filter((id) => !listed?.some((type) => type.id === id)) : [];
  const extra = useQueries({
    queries: missing.map((id) => ({
      queryKey: queryKeys.resourceRecord(workspaceId ?? '', variationTypesResource.key, id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiRequest<VariationTypeRecord>(`/${variationTypesResource.path}/${encodeURIComponent(id)}`, {
          query: { workspaceId },
          signal,
        }),
      enabled: allows('get'),
    })),
  });
  const extraTypes = extra.map((query) => query.data);
  const extraKey = extraTypes.map((type) => type?.id ?? '').join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: extraKey stands for the fetched records
  const types = useMemo(() => {
    const known = new Map<string, VariationTypeRecord>();
    for (const type of listed ?? []) known.set(type.id, type);
    for (const type of extraTypes) if (type) known.set(type.id, type);
    return known;
  }, [listed, extraKey]);
  return {
    /** The types the user may add, in the list's order. */
    listed: listed ?? [],
    types,
    canView: allows('list'),
    isLoading: list.isPending && allows('list'),
  };
}

/** A record's name among the first page of its resource, else fetched alone; null while unknown. */
export function useRecordLabel(resourceKey: string, id: string | null | undefined): string | null {
  const { i18n } = useTranslation();
  const definition = requireResource(resourceKey);
  const page = useResourceList(definition, optionListParams(definition));
  const inPage = id ? page.data?.data.find((record) => record.id === id) : undefined;
  const alone = useResourceRecord(definition, page.isSuccess && id && !inPage ? id : null);
  const record = inPage ?? alone.data;
  const known = useProductReference(id);
  if (record) return recordName(definition, record as Record<string, unknown>, i18n.language);
  return known ? pickLocalized(known.name, i18n.language) : null;
}

/** A measurement unit's symbol ("kg"), for a quantity in it; null while unknown. */
export function useUnitSymbol(id: string | null | undefined): string | null {
  const page = useResourceList(measurementUnitsResource, optionListParams(measurementUnitsResource));
  const inPage = id
    ? (page.data?.data.find((unit) => unit.id === id) as MeasurementUnitRecord | undefined)
    : undefined;
  const alone = useResourceRecord(measurementUnitsResource, page.isSuccess && id && !inPage ? id : null);
  const known = useProductReference(id);
  return (inPage ?? (alone.data as MeasurementUnitRecord | undefined))?.symbol ?? known?.symbol ?? null;
}
