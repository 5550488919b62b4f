import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from '../../platform/storage/file-store.ts';
import { localStoredFiles } from '../../platform/storage/local-file-store.ts';
import { eachAtMost } from './uploads.ts';

export interface CopyReport {
  /** Files written to the target. */
  copied: number;
  /** Their bytes. */
  copiedBytes: number;
  /** Files the target already had with the same size. */
  skipped: number;
  /** Files that could not be copied, by key with the reason. */
  failed: { key: string; reason: string }[];
}

/** How many files are copied at once. */
const copyConcurrency = 8;

/**
 * Copies every stored file of an uploads folder (uploads and platform files, by the naming
 * scheme; anything else there is left out) into another store under the same key, so the same
 * addresses are served from it. A file the target already holds with the same size is skipped:
 * a run cut short is resumed by running it again, and a run after a complete one copies nothing.
 * One that differs in size is written again. Each file is checked by key (`size`): the target
 * is never listed. Nothing is removed from the folder.
 */
export async function copyUploads(sourceDir: string, target: FileStore): Promise<CopyReport> {
  const files: { key: string; bytes: number }[] = [];
  for await (const file of localStoredFiles(sourceDir)) files.push(file);
  const report: CopyReport = { copied: 0, copiedBytes: 0, skipped: 0, failed: [] };
  await eachAtMost(copyConcurrency, files, async ({ key, bytes }) => {
    try {
      const there = await target.size(key);
      if (there === bytes) {
        report.skipped += 1;
        return;
      }
      const content = await readFile(join(sourceDir, key));
      // A store's `put` writes new names only: a different file under the name goes first.
      if (there !== null) await target.delete(key);
      await target.put(key, content);
      report.copied += 1;
      report.copiedBytes += content.length;
    } catch (error) {
      report.failed.push({ key, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  report.failed.sort((a, b) => (a.key < b.key ? -1 : 1));
  return report;
}
