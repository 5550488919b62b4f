import {
  type ApiList,
  type PermissionTag,
  type ResourceDefinition,
  type ResourceVerb,
  tagFor,
} from '@dukkan/contract';
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { apiRequest, apiRequestList } from '../lib/api-client.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { usePermissionCheck, useWorkspace } from '../lib/workspace-context.tsx';
import { type ListParams, listRequestQuery } from './list-params.ts';
import { type OperationAction, operationEntity, operationTexts, toastOperation } from './operation-toast.tsx';

/** A record of the resource, as its definition declares it. */
export type RecordOf<D extends ResourceDefinition> = z.infer<D['schemas']['record']> & { id: string };
type CreateInputOf<D extends ResourceDefinition> = z.input<D['schemas']['create']>;
type UpdateInputOf<D extends ResourceDefinition> = z.input<D['schemas']['update']>;

/** One value a filter can take and how many records have it (`GET {resource}/filters`). */
export interface FilterValueCount {
  value: string | null;
  count: number;
  /** For references: the referenced record's name, when the server adds it. */
  label?: string;
}
type FilterCounts = Record<string, FilterValueCount[]>;

/** A mutation refused on the client: the user lacks the tag, so nothing was sent (spec §6). */
export class PermissionDeniedError extends Error {
  override name = 'PermissionDeniedError';
  constructor(readonly tag: PermissionTag | null) {
    super(tag ? `Missing permission ${tag}` : 'No workspace selected');
  }
}

/** The selected workspace and what the user may do with this resource in it. */
export function useResourceAccess(definition: Pick<ResourceDefinition, 'permission' | 'verbs'>) {
  const { selectedWorkspace } = useWorkspace();
  const check = usePermissionCheck();
  const workspaceId = selectedWorkspace?.id ?? null;
  const allows = useCallback(
    (verb: ResourceVerb) =>
      workspaceId !== null && definition.verbs.includes(verb) && check({ and: [tagFor(definition, verb)] }),
    [workspaceId, definition, check],
  );
  return { workspaceId, allows };
}

/**
 * One page of a resource (`GET {path}?workspaceId&page&pageSize&search&sort&<filters>`). Never
 * sent without the view permission. While the next page loads the current one stays shown, but
 * only within the same workspace: another workspace's rows are never a placeholder.
 */
export function useResourceList<D extends ResourceDefinition>(
  definition: D,
  params: ListParams,
  options: { enabled?: boolean } = {},
) {
  const { workspaceId, allows } = useResourceAccess(definition);
  // Names sort in the reader's language: another language is another list.
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: queryKeys.resourceList(workspaceId ?? '', definition.key, { ...params, language }),
    queryFn: ({ signal }) =>
      apiRequestList<RecordOf<D>>(`/${definition.path}`, {
        query: listRequestQuery(workspaceId ?? '', params),
        signal,
        language,
      }),
    enabled: allows('list') && (options.enabled ?? true),
    placeholderData: (previous: ApiList<RecordOf<D>> | undefined, previousQuery) =>
      previousQuery?.queryKey[0] === workspaceId && previousQuery?.queryKey[1] === definition.key
        ? previous
        : undefined,
  });
}

/** One record (`GET {path}/{id}`), with the view permission. */
export function useResourceRecord<D extends ResourceDefinition>(
  definition: D,
  id: string | null | undefined,
) {
  const { workspaceId, allows } = useResourceAccess(definition);
  return useQuery({
    queryKey: queryKeys.resourceRecord(workspaceId ?? '', definition.key, id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<RecordOf<D>>(`/${definition.path}/${encodeURIComponent(id ?? '')}`, {
        query: { workspaceId },
        signal,
      }),
    enabled: allows('get') && Boolean(id),
  });
}

/** The values each declared filter can take, with counts (`GET {path}/filters`). */
export function useResourceFilters(definition: ResourceDefinition, options: { enabled?: boolean } = {}) {
  const { workspaceId, allows } = useResourceAccess(definition);
  const hasFilters = definition.filters.length > 0 || definition.hasStatus;
  return useQuery({
    queryKey: queryKeys.resourceFilters(workspaceId ?? '', definition.key),
    queryFn: ({ signal }) =>
      apiRequest<FilterCounts>(`/${definition.path}/filters`, { query: { workspaceId }, signal }),
    enabled: hasFilters && allows('filters') && (options.enabled ?? true),
  });
}

export interface OperationOptions {
  /** Other caches the change affects, e.g. the current user after editing a role. */
  alsoInvalidate?: readonly QueryKey[];
  /** Other resources of the same workspace it affects (a member's new role moves the roles' counts). */
  alsoInvalidateResources?: readonly string[];
  /**
   * The caller shows why a change failed (a dialog that stays open with the refusal): the toast
   * then says only that it failed, so the reason — five names of records in use — is read once.
   */
  reasonShownByCaller?: boolean;
  /**
   * The caller says the failure itself, all of it (a delete confirmation, which stays open with
   * the refusal and its names): no failure toast at all, so a refusal is said once, where it is
   * read. The in-progress toast goes; a success is toasted as ever.
   */
  failureShownByCaller?: boolean;
}

/**
 * Runs a workspace-scoped change: refused before sending without its tag, announced with the
 * spec's operation toast, and followed by a refresh of the resource's cached lists and records.
 */
export function useOperationRunner(definition: ResourceDefinition, options: OperationOptions = {}) {
  const { t, i18n } = useTranslation();
  const { workspaceId } = useResourceAccess(definition);
  const check = usePermissionCheck();
  const queryClient = useQueryClient();
  const {
    alsoInvalidate,
    alsoInvalidateResources,
    reasonShownByCaller = false,
    failureShownByCaller = false,
  } = options;

  return useCallback(
    async <T>(
      action: OperationAction,
      tag: PermissionTag,
      send: (workspaceId: string) => Promise<T>,
    ): Promise<T> => {
      if (!workspaceId) throw new PermissionDeniedError(null);
      if (!check({ and: [tag] })) throw new PermissionDeniedError(tag);
      const texts = operationTexts(action, operationEntity(definition, t), t);
      const result = await toastOperation(send(workspaceId), texts, t, i18n.language, {
        showReason: !reasonShownByCaller,
        showFailure: !failureShownByCaller,
      });
      const keys = [
        queryKeys.resource(workspaceId, definition.key),
        ...(alsoInvalidateResources ?? []).map((key) => queryKeys.resource(workspaceId, key)),
        ...(alsoInvalidate ?? []),
      ];
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return result;
    },
    [
      workspaceId,
      check,
      definition,
      t,
      i18n,
      queryClient,
      alsoInvalidate,
      alsoInvalidateResources,
      reasonShownByCaller,
      failureShownByCaller,
    ],
  );
}

/** The generic verbs' changes: create, bulk, update, enable/disable and delete. */
export function useResourceMutations<D extends ResourceDefinition>(
  definition: D,
  options: OperationOptions = {},
) {
  const run = useOperationRunner(definition, options);
  // A refusal names records (the five that use the one being deleted) in the reader's language.
  const { language } = useTranslation().i18n;
  const base = `/${definition.path}`;
  const tag = (verb: ResourceVerb) => tagFor(definition, verb);
  const item = (id: string) => `${base}/${encodeURIComponent(id)}`;

  const refuseUnlessDeclared = (verb: ResourceVerb) => {
    if (!definition.verbs.includes(verb)) throw new Error(`${definition.key} does not offer ${verb}`);
  };

  const create = useMutation({
    mutationFn: (input: CreateInputOf<D>) => {
      refuseUnlessDeclared('create');
      return run('create', tag('create'), (workspaceId) =>
        apiRequest<RecordOf<D>>(base, { method: 'POST', body: input, query: { workspaceId }, language }),
      );
    },
  });
  const bulkCreate = useMutation({
    mutationFn: (inputs: CreateInputOf<D>[]) => {
      refuseUnlessDeclared('bulk');
      return run('create', tag('bulk'), (workspaceId) =>
        apiRequest<RecordOf<D>[]>(`${base}/bulk`, {
          method: 'POST',
          body: inputs,
          query: { workspaceId },
          language,
        }),
      );
    },
  });
  const update = useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateInputOf<D> }) => {
      refuseUnlessDeclared('update');
      return run('update', tag('update'), (workspaceId) =>
        apiRequest<RecordOf<D>>(item(id), { method: 'PATCH', body: input, query: { workspaceId }, language }),
      );
    },
  });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'inactive' }) => {
      refuseUnlessDeclared('update');
      return run(status === 'active' ? 'enable' : 'disable', tag('update'), (workspaceId) =>
        apiRequest<RecordOf<D>>(item(id), {
          method: 'PATCH',
          body: { status },
          query: { workspaceId },
          language,
        }),
      );
    },
  });
  const remove = useMutation({
    mutationFn: ({ id, action = 'delete' }: { id: string; action?: OperationAction }) => {
      refuseUnlessDeclared('delete');
      return run(action, tag('delete'), (workspaceId) =>
        apiRequest<{ id: string }>(item(id), { method: 'DELETE', query: { workspaceId }, language }),
      );
    },
  });

  return { create, bulkCreate, update, setStatus, remove };
}
