/** The operator's maintenance commands: signing keys, stored codes, moving files to a bucket. */
import { copyUploads } from '../features/files/copy-uploads.ts';
import { rotateSigningKeys } from '../features/oauth/signing-keys.ts';
import {
  describeCodeCollisions,
  findCodeCollisions,
  storedCodeColumns,
} from '../resource-engine/code-collisions.ts';
import { type CommandGroup, type CommandSpec, services, UsageError, withFileStore } from './command.ts';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const commands = {
  'rotate-signing-keys': {
    options: {},
    positionals: [],
    run() {
      return async (context) => {
        const { kid, removed } = await rotateSigningKeys(context.database.db, context.now());
        context.io.stdout(
          `New signing key ${kid}; the previous one verifies for two more days.${removed > 0 ? ` ${removed} expired key${removed === 1 ? '' : 's'} removed.` : ''}\n`,
        );
      };
    },
  },
  'check-codes': {
    options: {},
    positionals: [],
    run() {
      return async (context) => {
        const collisions = await findCodeCollisions(
          context.database.db,
          storedCodeColumns(services(context).resources),
        );
        if (collisions.length === 0) {
          context.io.stdout('No stored codes collide: every code is stored as the rule makes it.\n');
          return;
        }
        context.io.stdout(
          `${[
            ...describeCodeCollisions(collisions),
            `${collisions.length} group${collisions.length === 1 ? '' : 's'} of codes stored apart that are one code (or none) under the rule. Rename all but one of each; the records are as they were.`,
          ].join('\n')}\n`,
        );
      };
    },
  },
  'copy-uploads': {
    options: {},
    positionals: [],
    local: true,
    run() {
      return async (context) => {
        const { fileStore, uploads } = context.config;
        if (fileStore.kind !== 's3') {
          throw new UsageError(
            'copy-uploads copies DATA_DIR/uploads into the bucket of S3_BUCKET: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the AWS credentials) as the server will have them',
          );
        }
        const report = await withFileStore(context, (store) => copyUploads(uploads.dir, store));
        for (const { key, reason } of report.failed) context.io.stderr(`Not copied: ${key}: ${reason}\n`);
        context.io.stdout(
          `Copied ${plural(report.copied, 'file')} (${report.copiedBytes} bytes) from ${uploads.dir} to the bucket ${fileStore.bucket}; ${report.skipped} already there with the same size; ${report.failed.length} failed.\n`,
        );
        if (report.failed.length > 0) {
          throw new Error(
            `${plural(report.failed.length, 'file')} not copied: run copy-uploads again to retry them`,
          );
        }
      };
    },
  },
} satisfies Record<string, CommandSpec>;

export const maintenanceCommands: CommandGroup<keyof typeof commands> = { commands, inputErrors: [] };
