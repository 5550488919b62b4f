import { randomUUID } from 'node:crypto';
import {
  filesPathPrefix,
  maxFilesPerUpload,
  type UploadedFile,
  type UploadedFiles,
  validationCodes,
  workspaceQuerySchema,
} from '@dukkan/contract';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uploads, users } from '../../db/schema/index.ts';
import { AppError, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller, requestUser } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { isServedFileKey, storedFileType } from '../../platform/storage/file-store.ts';
import { detectImageType } from '../../platform/storage/image-type.ts';
import type { ImportWorker } from '../../resource-engine/import-jobs.ts';
import type { ResourceEngine } from '../../resource-engine/registry.ts';
import { loadCurrentUser } from '../auth/current-user.ts';
import { imageReferences, removeUnreferencedUploads, reserveUploads, uploadedFileKey } from './uploads.ts';

/** Uploading needs `addFiles` or `editFiles` (spec §6: either shows the file input). */
const uploadAccess = { config: { access: access.permission({ or: ['addFiles', 'editFiles'] }) } };

/**
 * Image uploads of a workspace (spec §7 `POST /files`, `POST /files/bulk`), stored in the file
 * store (the uploads folder or a bucket) as `<workspaceId>/<random>.<ext>` and served at
 * `/files/…`. A file is accepted by its content, never its name or declared type; a bulk upload
 * stores all or none.
 */
export async function registerFileRoutes(
  app: FastifyInstance,
  context: AppContext,
  resources: ResourceEngine,
  importWorker: Pick<ImportWorker, 'sweep'>,
) {
  const { maxBytes, quotaBytes, graceMs, cleanupIntervalMs } = context.config.uploads;
  const { db, fileStore } = context;
  const references = imageReferences(resources);
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxBytes, files: maxFilesPerUpload, fields: 0, parts: maxFilesPerUpload },
    // A file over the limit is reported by the handler below, as a field error.
    throwFileSizeLimit: false,
  });

  /** Reads every part named `field`; anything else, too large or not an image is refused. */
  async function readImages(request: FastifyRequest, field: string) {
    if (!request.isMultipart())
      throw validationError([{ path: field, message: validationCodes.FILE_IS_REQUIRED }]);
    const images: { bytes: Buffer; extension: string }[] = [];
    let parts: AsyncIterableIterator<MultipartFile>;
    try {
      parts = request.files();
      for await (const part of parts) {
        const path = `${field}.${images.length}`;
        if (part.fieldname !== field)
          throw validationError([{ path: part.fieldname, message: validationCodes.FILE_IS_REQUIRED }]);
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw validationError([{ path, message: validationCodes.FILE_TOO_LARGE }]);
        const type = detectImageType(bytes);
        if (!type) throw validationError([{ path, message: validationCodes.FILE_TYPE_NOT_ALLOWED }]);
        images.push({ bytes, extension: type.extension });
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
        throw validationError([{ path: field, message: validationCodes.TOO_MANY_FILES }]);
      }
      if (error instanceof AppError) throw error;
      // The multipart parser's own refusals (no boundary, a body cut short, a malformed part
      // header) are the client's malformed body.
      throw validationError(
        [{ path: field, message: validationCodes.FILE_IS_REQUIRED }],
        'Malformed multipart body',
      );
    }
    if (images.length === 0)
      throw validationError([{ path: field, message: validationCodes.FILE_IS_REQUIRED }]);
    return images;
  }

  /**
   * Counts the images against the workspace's quota, then writes them. The rows come first: a
   * write that fails takes its rows back, and a crash in between leaves rows without files,
   * which the clean-up removes; never a file that nothing counts.
   */
  async function store(workspaceId: string, images: { bytes: Buffer; extension: string }[], field: string) {
    const files = images.map(({ bytes, extension }) => ({
      bytes,
      path: `${filesPathPrefix}${workspaceId}/${randomUUID()}.${extension}`,
    }));
    const paths = files.map((file) => file.path);
    await db.transaction((tx) =>
      reserveUploads(
        tx,
        workspaceId,
        files.map((file) => ({ path: file.path, bytes: file.bytes.length })),
        { quotaBytes, field, now: context.now() },
      ),
    );
    try {
      await Promise.all(files.map((file) => fileStore.put(uploadedFileKey(file.path)!, file.bytes)));
    } catch (error) {
      await db.delete(uploads).where(and(eq(uploads.workspaceId, workspaceId), inArray(uploads.path, paths)));
      await Promise.allSettled(paths.map((path) => fileStore.delete(uploadedFileKey(path)!)));
      throw error;
    }
    return paths;
  }

  app.post('/api/files', uploadAccess, async (request, reply) => {
    parseInput(workspaceQuerySchema, request.query);
    const images = await readImages(request, 'file');
    if (images.length > 1) throw validationError([{ path: 'file', message: validationCodes.TOO_MANY_FILES }]);
    const [url = ''] = await store(requestCaller(request).workspaceId, images, 'file');
    return reply.status(201).send({ data: { url } satisfies UploadedFile });
  });

  app.post('/api/files/bulk', uploadAccess, async (request, reply) => {
    parseInput(workspaceQuerySchema, request.query);
    const urls = await store(requestCaller(request).workspaceId, await readImages(request, 'files'), 'files');
    return reply.status(201).send({ data: { urls } satisfies UploadedFiles });
  });

  // A person's own picture (spec §3 `profilePicture`), set on /profile. It needs no permission
  // (the profile needs none), only a membership of the workspace named: the picture is an upload
  // of that workspace, read and counted like any other (same size, type and quota rules), kept
  // while `users.profile_picture` refers to it (`imageReferences`). Answers the current user.
  app.put('/api/auth/profile/picture', { config: { access: access.workspaceMember } }, async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const images = await readImages(request, 'file');
    if (images.length > 1) throw validationError([{ path: 'file', message: validationCodes.TOO_MANY_FILES }]);
    const [url = ''] = await store(requestCaller(request).workspaceId, images, 'file');
    const { userId, factors } = requestUser(request);
    await db.update(users).set({ profilePicture: url, updatedAt: context.now() }).where(eq(users.id, userId));
    return { data: await loadCurrentUser(db, userId, factors) };
  });

  // Removing it: the avatars fall back to initials; the clean-up removes the file once nothing
  // refers to it after the grace period, as for a replaced picture.
  app.delete('/api/auth/profile/picture', { config: { access: access.signedIn } }, async (request) => {
    const { userId, factors } = requestUser(request);
    await db
      .update(users)
      .set({ profilePicture: null, updatedAt: context.now() })
      .where(eq(users.id, userId));
    return { data: await loadCurrentUser(db, userId, factors) };
  });

  // Every stored file, an upload or a platform file, to whoever has its address: the names are
  // random and never reused (uploads are authorized when written, not when read). Streamed from
  // the store whichever the driver, so the bucket stays private and the files keep this origin and
  // these headers (decision 0025). A name outside the naming scheme is never asked of the store.
  app.get<{ Params: { '*': string } }>(`${filesPathPrefix}*`, async (request, reply) => {
    const key = request.params['*'];
    const file = isServedFileKey(key) ? await fileStore.get(key) : null;
    if (!file) return reply.callNotFound();
    reply
      .header('content-type', storedFileType(key))
      // Cached for good: a name is never given to other content. The type comes from the checked extension.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      // An SVG logo opened on its own runs no script and loads nothing.
      .header('content-security-policy', "default-src 'none'")
      .header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) {
      file.body.destroy();
      return reply.status(304).send();
    }
    return reply.header('content-length', file.bytes).send(file.body);
  });

  // Uploads that no record took up within the grace period (a form left unsaved, an image
  // replaced) are removed every UPLOAD_CLEANUP_SECONDS (an hour by default), by one instance at a
  // time; the timer never keeps the process alive.
  // The same turn removes the files of imports queued more than a day ago and fails the jobs a
  // dead process left running (decision 0042).
  const cleanup = setInterval(() => {
    removeUnreferencedUploads(db, references, { store: fileStore, graceMs, now: context.now() })
      .then((removed) => {
        if (removed.length > 0) app.log.info({ removed: removed.length }, 'removed unreferenced uploads');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'upload clean-up failed'));
    importWorker.sweep().catch((error: unknown) => app.log.error({ err: error }, 'import clean-up failed'));
  }, cleanupIntervalMs);
  cleanup.unref();
  app.addHook('onClose', async () => clearInterval(cleanup));
}
