import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { filesPathPrefix } from '@dukkan/contract';
import { type FileStore, storedFileKey } from '../../platform/storage/file-store.ts';
import { detectImageType } from '../../platform/storage/image-type.ts';
import { ApplicationError } from './application-input.ts';

/*
 * The platform's own files (applications' logos) are not a workspace's: they live in the same
 * file store as uploads (the uploads folder or the bucket), under `platform/` beside the
 * workspaces' folders, and are served
 * by the same `/files/` route as `/files/platform/<random>.<ext>`. That route already serves every
 * stored file to anyone who knows its random name (uploads are authorized when written, not when
 * read), which is what a logo needs: the public sign-in page shows it before anyone signs in. So
 * no route, guard or header changes, and none of the upload rules bend: the folder's name is no
 * workspace id, so no upload path (`/files/<uuid>/<uuid>.<ext>`) and no image field of a record
 * can point into it, no workspace quota counts it and the upload clean-up never sees it. The files
 * get the `/files/` headers: `nosniff` and `default-src 'none'` (an SVG opened on its own runs no
 * script), cached for good (a new logo gets a new name).
 */

/** The address prefix of the platform's files (`platform/` in the store). */
const platformFilesPrefix = `${filesPathPrefix}platform/`;

/** The configured file store. */
export type PlatformFiles = FileStore;

/** A logo is small: a larger file is a mistake (a photo, the wrong file). */
const maxLogoBytes = 1024 * 1024;

const rasterLogoExtensions = new Set(['png', 'jpg', 'webp']);

/**
 * Whether a text is an SVG document: its root element (after an XML declaration, comments or a
 * doctype) is `<svg`. Script, event handlers and embedded HTML are refused too, although the
 * operator chose the file: the served headers already stop them, and a logo has no use for them.
 */
function isPlainSvg(bytes: Uint8Array): boolean {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const root =
    /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;
  if (!root.test(text)) return false;
  return !/<script|<foreignObject|\son[a-z]+\s*=|javascript:/i.test(text);
}

/** A logo's format by its content (never its name): PNG, JPEG, WebP or a plain SVG. */
function detectLogoType(bytes: Uint8Array): { extension: string } | null {
  const raster = detectImageType(bytes);
  if (raster) return rasterLogoExtensions.has(raster.extension) ? { extension: raster.extension } : null;
  return isPlainSvg(bytes) ? { extension: 'svg' } : null;
}

/** Reads and checks a logo file on this machine; the refusal names the file and the reason. */
export async function readLogoFile(sourcePath: string): Promise<{ bytes: Buffer; extension: string }> {
  const refuse = (why: string) => new ApplicationError('logoNotUsable', `Logo ${sourcePath}: ${why}`);
  let bytes: Buffer;
  try {
    const info = await stat(sourcePath);
    if (!info.isFile()) throw refuse('is not a file');
    if (info.size > maxLogoBytes) throw refuse(`is over ${maxLogoBytes / 1024} KiB`);
    bytes = await readFile(sourcePath);
  } catch (error) {
    if (error instanceof ApplicationError) throw error;
    throw refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const type = detectLogoType(bytes);
  if (!type) throw refuse('is not a PNG, JPEG, WebP or SVG image (SVG without script)');
  return { bytes, extension: type.extension };
}

/** Stores a checked logo under a new random name and returns its address (`/files/platform/…`). */
export async function storePlatformLogo(
  files: PlatformFiles,
  logo: { bytes: Buffer; extension: string },
): Promise<string> {
  const path = `${platformFilesPrefix}${randomUUID()}.${logo.extension}`;
  await files.put(storedFileKey(path, 'platform')!, logo.bytes);
  return path;
}

/** Removes a platform file (a replaced logo, or one whose row was never written); gone is fine. */
export async function removePlatformFile(files: PlatformFiles, path: string | null): Promise<void> {
  const key = path ? storedFileKey(path, 'platform') : null;
  if (key) await files.delete(key);
}
