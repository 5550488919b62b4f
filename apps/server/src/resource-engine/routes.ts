import {
  bulkRowsSchema,
  exportQuerySchema,
  type ImportPreview,
  importJobsQuerySchema,
  importLimits,
  importPreviewRows,
  importQuerySchema,
  importTemplateQuerySchema,
  listQuerySchema,
  type ResourceDefinition,
  type ResourceVerb,
  recordStatusField,
  tagFor,
  workspaceQuerySchema,
} from '@dukkan/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { issuesFromZod, notFound, parseInput, validationError } from '../errors.ts';
import { access, declaredRoutes } from '../http/access.ts';
import { requestCaller } from '../http/caller.ts';
import type { FileStore } from '../platform/storage/file-store.ts';
import type { ResourceData } from './data.ts';
import { exportContentTypes, exportFileName, exportList } from './export.ts';
import {
  checkImportMapping,
  importContext,
  importMappingRules,
  isImportable,
  sheetHeaders,
} from './import.ts';
import type { ImportJobEvents } from './import-events.ts';
import { importTemplate, readImportPreview, readImportUpload } from './import-http.ts';
import {
  cancelImportJob,
  findImportJob,
  type ImportWorker,
  importJobView,
  queueImportJob,
  recentImportJobs,
} from './import-jobs.ts';
import { appliedMapping, proposedMapping, rememberedChoices } from './import-mapping.ts';
import { rememberedImportMapping, rememberImportMapping } from './import-mapping-store.ts';
import { namedFieldsOnly } from './queries.ts';
import type { ResourceEngine } from './registry.ts';
import type { ReaderLocale, ResourceCaller } from './storage.ts';

/** The reader's language, from `Accept-Language`: names sort in it (an Arabic reader's by the Arabic name). */
export function readerLocale(request: FastifyRequest): ReaderLocale {
  const first = request.headers['accept-language']?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first === 'ar' || first.startsWith('ar-') ? 'ar' : 'en';
}

/** The caller of a resource route, with the reader's language. */
function resourceCaller(request: FastifyRequest): ResourceCaller {
  return { ...requestCaller(request), locale: readerLocale(request) };
}

/**
 * A JSON schema of a record for the response serializer: Fastify writes each answer from it
 * (fast-json-stringify) instead of walking it with `JSON.stringify`, and never writes a field
 * the contract does not declare.
 */
function recordJsonSchema(definition: ResourceDefinition): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(definition.schemas.record, {
    io: 'output',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return schema;
}

/** The method and URL of each verb of a resource below `/api/`. */
export function verbRoutes(definition: Pick<ResourceDefinition, 'path'>, idParam = ':id') {
  const base = `/api/${definition.path}`;
  return {
    list: { method: 'GET', url: base },
    export: { method: 'GET', url: `${base}/export` },
    import: { method: 'POST', url: `${base}/import` },
    importPreview: { method: 'POST', url: `${base}/import/preview` },
    importTemplate: { method: 'GET', url: `${base}/import-template` },
    importJobs: { method: 'GET', url: `${base}/import-jobs` },
    importJobEvents: { method: 'GET', url: `${base}/import-jobs/events` },
    importJob: { method: 'GET', url: `${base}/import-jobs/:jobId` },
    cancelImportJob: { method: 'POST', url: `${base}/import-jobs/:jobId/cancel` },
    filters: { method: 'GET', url: `${base}/filters` },
    get: { method: 'GET', url: `${base}/${idParam}` },
    create: { method: 'POST', url: base },
    bulk: { method: 'POST', url: `${base}/bulk` },
    update: { method: 'PATCH', url: `${base}/${idParam}` },
    delete: { method: 'DELETE', url: `${base}/${idParam}` },
  } as const satisfies Record<
    | ResourceVerb
    | 'export'
    | 'import'
    | 'importPreview'
    | 'importTemplate'
    | 'importJobs'
    | 'importJobEvents'
    | 'importJob'
    | 'cancelImportJob',
    { method: string; url: string }
  >;
}

/**
 * The generic router of one resource: list, filters, get, create, bulk create, patch (including
 * enable/disable) and delete, each behind its verb's permission, each a call of the resource's
 * data operations with the caller the guard checked. Only the verbs the definition lists are
 * registered.
 */
function registerResourceRoutes(
  app: FastifyInstance,
  db: Database,
  data: ResourceData,
  dataOf: (key: string) => ResourceData | undefined,
  imports: ImportServices,
) {
  const { definition } = data.storage;
  const routes = verbRoutes(definition);
  const has = (verb: ResourceVerb) => data.engineVerbs.includes(verb);
  const options = (verb: ResourceVerb, response?: Record<string, unknown>) => ({
    config: { access: access.permission({ and: [tagFor(definition, verb)] }) },
    ...(response ? { schema: { response } } : {}),
  });
  const record = recordJsonSchema(definition);
  const one = { type: 'object', properties: { data: record } };
  const many = { type: 'object', properties: { data: { type: 'array', items: record } } };

  const listSchema = listQuerySchema(definition);
  const createSchema = definition.schemas.create.strict();
  const updateSchema = (
    definition.hasStatus
      ? definition.schemas.update.extend({ status: recordStatusField.optional() })
      : definition.schemas.update
  ).strict();

  if (has('list')) {
    const page = {
      type: 'object',
      properties: {
        data: { type: 'array', items: record },
        meta: {
          type: 'object',
          properties: {
            total: { type: 'integer' },
            page: { type: 'integer' },
            pageSize: { type: 'integer' },
            totalCapped: { type: 'boolean' },
          },
        },
      },
    };
    app.get(routes.list.url, options('list', { 200: page }), async (request) => {
      const query = parseInput(listSchema, request.query);
      const { workspaceId } = requestCaller(request);
      const { records, total, capped } = await data.list(db, workspaceId, query, readerLocale(request));
      const meta = { total, page: query.page, pageSize: query.pageSize };
      return { data: records, meta: capped ? { ...meta, totalCapped: true } : meta };
    });
  }

  if (has('list')) {
    // The list's records as a file: the list's query (search, filters, sort; every page), behind
    // the list's permission.
    const exportSchema = exportQuerySchema(definition);
    app.get(routes.export.url, options('list'), async (request, reply) => {
      const { format, ...query } = parseInput(exportSchema, request.query);
      const stream = await exportList({
        db,
        data,
        dataOf,
        workspaceId: requestCaller(request).workspaceId,
        query,
        locale: readerLocale(request),
        format,
      });
      return reply
        .header('content-type', exportContentTypes[format])
        .header('content-disposition', `attachment; filename="${exportFileName(definition, format)}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    });
  }

  if (isImportable(data)) {
    // A file of rows creating and changing records (decision 0038): behind add or edit, each row
    // then checked against the one it needs. A dry run writes nothing; a commit all or nothing,
    // its `import` audit row with it.
    const importAccess = {
      config: {
        access: access.permission({ or: [tagFor(definition, 'create'), tagFor(definition, 'update')] }),
      },
    };
    // The file is read here (its limits and format refused at once), stored, and imported by a
    // job (decision 0042): 202 with the job, which `import-jobs/:jobId` follows.
    app.post(routes.import.url, importAccess, async (request, reply) => {
      const { dryRun } = parseInput(importQuerySchema, request.query);
      const { file, sheet, bytes, mapping } = await readImportUpload(request, importLimits);
      const { userId, workspaceId } = requestCaller(request);
      // The member's column mapping is refused here, before anything is stored (decision 0046).
      const rules = mapping
        ? await checkImportMapping(
            data,
            await importContext(db, workspaceId, readerLocale(request)),
            sheetHeaders(sheet),
            mapping,
          )
        : undefined;
      const job = await queueImportJob(db, imports.store, {
        mapping,
        workspaceId,
        resource: definition.key,
        dryRun: dryRun === 'true',
        file,
        bytes,
        rowsTotal: sheet.rowsTotal,
        locale: readerLocale(request),
        actor: {
          userId,
          requestId: request.id,
          address: request.ip ?? null,
          userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
        },
        now: imports.now(),
      });
      // A check or an import with a mapping is the member's choice of columns: the workspace
      // remembers it for the list's next file (decision 0046), whatever the rows then hold.
      if (mapping && rules)
        await rememberImportMapping(db, {
          workspaceId,
          resource: definition.key,
          mapping: appliedMapping(sheetHeaders(sheet), mapping, rules.match),
          userId,
          now: imports.now(),
        });
      imports.worker.wake();
      return reply.status(202).send({ data: importJobView(job) });
    });
    // The file's header and first rows, and the mapping proposed for them (decision 0046): the
    // workspace's remembered choices for the headers it names, the names' match for the rest.
    // Read from the upload's first bytes, never the whole file; nothing is stored.
    app.post(routes.importPreview.url, importAccess, async (request) => {
      parseInput(importJobsQuerySchema, request.query);
      const { file, sheet } = await readImportPreview(request, importLimits, importPreviewRows);
      const { workspaceId } = requestCaller(request);
      const context = await importContext(db, workspaceId, readerLocale(request));
      const rules = importMappingRules(data, await data.importExpansion?.(context), context.locale);
      const headers = sheetHeaders(sheet);
      const remembered = rememberedChoices(
        await rememberedImportMapping(db, workspaceId, definition.key),
        rules.targets,
      );
      const mapping = proposedMapping(headers, rules.match, remembered);
      const byName = proposedMapping(headers, rules.match);
      const preview: ImportPreview = {
        fileName: file.name,
        format: file.format,
        headers,
        rows: sheet.rows.map((cells) => headers.map((_, index) => cells[index] ?? null)),
        mapping,
        remembered: Object.keys(mapping).filter(
          (header) => Object.hasOwn(remembered, header) && mapping[header] !== byName[header],
        ),
        targets: [...rules.targets],
      };
      return { data: preview };
    });
    // The workspace's latest imports of the list, newest first: the page shows the one running
    // or the last one to a member who comes back.
    app.get(routes.importJobs.url, importAccess, async (request) => {
      parseInput(importJobsQuerySchema, request.query);
      const jobs = await recentImportJobs(db, requestCaller(request).workspaceId, definition.key);
      return { data: jobs.map(importJobView) };
    });
    // The list's jobs as they move, pushed by this process's worker (decision 0052): opened with
    // the dialog, before a file is sent, and checked now — afterwards it reads no database, so a
    // run holding the embedded database's one connection does not hold its progress back. Never
    // compressed: a compressor keeps the bytes until it has enough of them.
    app.get(routes.importJobEvents.url, { ...importAccess, compress: false }, async (request, reply) => {
      parseInput(importJobsQuerySchema, request.query);
      if (imports.eventsMaxMs === 0) return reply.status(204).send();
      void reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        // nginx keeps a proxied answer until it has a buffer's worth unless told not to.
        .header('x-accel-buffering', 'no');
      // HEAD (Fastify's twin of the GET): the headers only, no stream kept open for nobody.
      if (request.method === 'HEAD') return reply.send();
      const body = imports.events.stream(requestCaller(request).workspaceId, definition.key, {
        maxMs: imports.eventsMaxMs,
      });
      return reply.send(body);
    });
    app.get(routes.importJob.url, importAccess, async (request) => {
      parseInput(importJobsQuerySchema, request.query);
      const { jobId } = request.params as { jobId: string };
      const job = await findImportJob(db, requestCaller(request).workspaceId, definition.key, jobId);
      if (!job) throw notFound();
      return { data: importJobView(job) };
    });
    app.post(routes.cancelImportJob.url, importAccess, async (request) => {
      parseInput(importJobsQuerySchema, request.query);
      const { jobId } = request.params as { jobId: string };
      const job = await cancelImportJob(db, imports.store, {
        workspaceId: requestCaller(request).workspaceId,
        resource: definition.key,
        id: jobId,
        now: imports.now(),
      });
      return { data: importJobView(job) };
    });
    app.get(routes.importTemplate.url, importAccess, async (request, reply) => {
      const { format } = parseInput(importTemplateQuerySchema, request.query);
      const context = await importContext(db, requestCaller(request).workspaceId, readerLocale(request));
      const file = await importTemplate(data, format, context);
      return reply
        .header('content-type', exportContentTypes[format])
        .header(
          'content-disposition',
          `attachment; filename="${definition.path.replace(/\//g, '-')}-template.${format}"`,
        )
        .header('cache-control', 'no-store')
        .send(file);
    });
  }

  if (has('filters')) {
    app.get(routes.filters.url, options('filters'), async (request) => {
      parseInput(workspaceQuerySchema, request.query);
      return { data: await data.filterValues(db, requestCaller(request).workspaceId) };
    });
  }

  if (has('get')) {
    app.get(routes.get.url, options('get', { 200: one }), async (request) => {
      const caller = resourceCaller(request);
      const found = await data.find(db, caller.workspaceId, (request.params as { id: string }).id, caller);
      if (!found) throw notFound();
      return { data: found };
    });
  }

  if (has('create')) {
    app.post(routes.create.url, options('create', { 201: one }), async (request, reply) => {
      const input = parseInput(createSchema, request.body) as Record<string, unknown>;
      const [created] = await data.create(db, resourceCaller(request), [input]);
      return reply.status(201).send({ data: created });
    });
  }

  if (has('bulk')) {
    app.post(routes.bulk.url, options('bulk', { 201: many }), async (request, reply) => {
      const rows = parseInput(bulkRowsSchema, request.body);
      const inputs: Record<string, unknown>[] = [];
      const issues = rows.flatMap((row, index) => {
        const parsed = createSchema.safeParse(row);
        if (parsed.success) {
          inputs.push(parsed.data as Record<string, unknown>);
          return [];
        }
        return issuesFromZod(parsed.error).map((issue) => ({
          ...issue,
          path: issue.path ? `${index}.${issue.path}` : `${index}`,
        }));
      });
      if (issues.length > 0) throw validationError(issues);
      return reply.status(201).send({ data: await data.create(db, resourceCaller(request), inputs, true) });
    });
  }

  if (has('update')) {
    app.patch(routes.update.url, options('update', { 200: one }), async (request) => {
      const { id } = request.params as { id: string };
      const input = namedFieldsOnly(
        parseInput(updateSchema, request.body) as Record<string, unknown>,
        request.body,
      );
      const updated = await data.update(db, resourceCaller(request), id, input);
      if (!updated) throw notFound();
      return { data: updated };
    });
  }

  if (has('delete')) {
    app.delete(routes.delete.url, options('delete'), async (request) => {
      const { id } = request.params as { id: string };
      if (!(await data.remove(db, resourceCaller(request), id))) throw notFound();
      return { data: { id } };
    });
  }
}

/**
 * What the import routes queue their jobs with: the file store, this process's worker, the clock;
 * and the hub the worker pushes its jobs' progress to, with how long a stream of it stays open
 * (0: no stream).
 */
export interface ImportServices {
  store: FileStore;
  worker: ImportWorker;
  now(): Date;
  events: ImportJobEvents;
  eventsMaxMs: number;
}

/** Registers the routes of every resource the engine serves. */
export function registerResources(
  app: FastifyInstance,
  db: Database,
  engine: ResourceEngine,
  imports: ImportServices,
) {
  const dataOf = (key: string) => engine.served.find((data) => data.storage.definition.key === key);
  for (const data of engine.served) registerResourceRoutes(app, db, data, dataOf, imports);
}

/**
 * Every verb of every resource of the contract's registry has its route with its permission,
 * whether the engine or a feature serves it: checked once every route is registered, so a
 * resource the contract declares and nobody serves stops the server instead of answering 404.
 */
export function assertResourcesServed(app: FastifyInstance, engine: ResourceEngine) {
  const registered = declaredRoutes(app);
  const shape = (url: string) => url.replace(/:[^/]+/g, ':');
  const missing: string[] = [];
  for (const definition of [
    ...engine.served.map((data) => data.storage.definition),
    ...engine.servedByFeatures,
  ]) {
    const routes = verbRoutes(definition);
    for (const verb of definition.verbs) {
      const { method, url } = routes[verb];
      const route = registered.find(
        (candidate) => candidate.method === method && shape(candidate.url) === shape(url),
      );
      const tag = tagFor(definition, verb);
      const guarded =
        route?.access.kind === 'permission' &&
        [...(route.access.requirement.and ?? []), ...(route.access.requirement.or ?? [])].includes(tag);
      if (!guarded) missing.push(`${definition.key}: ${verb} (${method} ${url} needing ${tag})`);
    }
  }
  if (missing.length > 0) {
    throw new Error(`Resources declared in the contract but not served: ${missing.join('; ')}`);
  }
}
