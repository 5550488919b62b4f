import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  filesPathPrefix,
  maxFilesPerUpload,
  type UploadedFile,
  type UploadedFiles,
  validationCodes,
} from '@dukkan/contract';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { parseInput, validationError } from '../../http/errors.ts';
import { detectImageType } from './image-type.ts';

/** Uploading needs `addFiles` or `editFiles` (spec §6: either shows the file input). */
const uploadAccess = { config: { access: access.permission({ or: ['addFiles', 'editFiles'] }) } };

/**
 * Image uploads of a workspace (spec §7 `POST /files`, `POST /files/bulk`), stored under
 * `DATA_DIR/uploads/<workspaceId>/` with random names and served at `/files/…`. A file is
 * accepted by its content, never its name or declared type; a bulk upload stores all or none.
 */
export async function registerFileRoutes(app: FastifyInstance, context: AppContext) {
  const { dir, maxBytes } = context.config.uploads;
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
      throw error;
    }
    if (images.length === 0)
      throw validationError([{ path: field, message: validationCodes.FILE_IS_REQUIRED }]);
    return images;
  }

  async function store(workspaceId: string, images: { bytes: Buffer; extension: string }[]) {
    const folder = join(dir, workspaceId);
    await mkdir(folder, { recursive: true });
    return Promise.all(
      images.map(async ({ bytes, extension }) => {
        const name = `${randomUUID()}.${extension}`;
        await writeFile(join(folder, name), bytes, { flag: 'wx' });
        return `${filesPathPrefix}${workspaceId}/${name}`;
      }),
    );
  }

  const querySchema = z.strictObject({ workspaceId: z.uuid() });

  app.post('/api/files', uploadAccess, async (request, reply) => {
    parseInput(querySchema, request.query);
    const images = await readImages(request, 'file');
    if (images.length > 1) throw validationError([{ path: 'file', message: validationCodes.TOO_MANY_FILES }]);
    const [url = ''] = await store(requestCaller(request).workspaceId, images);
    return reply.status(201).send({ data: { url } satisfies UploadedFile });
  });

  app.post('/api/files/bulk', uploadAccess, async (request, reply) => {
    parseInput(querySchema, request.query);
    const urls = await store(requestCaller(request).workspaceId, await readImages(request, 'files'));
    return reply.status(201).send({ data: { urls } satisfies UploadedFiles });
  });

  await mkdir(dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: dir,
    prefix: filesPathPrefix,
    decorateReply: false,
    index: false,
    // Names are random and never reused: cache for good. The type comes from the checked extension.
    setHeaders(response) {
      response.setHeader('cache-control', 'public, max-age=31536000, immutable');
      response.setHeader('x-content-type-options', 'nosniff');
      response.setHeader('content-security-policy', "default-src 'none'");
    },
  });
}
