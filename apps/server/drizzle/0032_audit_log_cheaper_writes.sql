-- The log keyed by time within the workspace, (workspace_id, at, id): the key the Activity page
-- and the retention purge read, where a key on (workspace_id, id) and an index on the three
-- columns were two entries a row to write (decision 0059).
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY("workspace_id","at","id");--> statement-breakpoint
-- A product save's changes (2,048 variants: 450 kB of JSON) compressed with lz4 rather than
-- pglz, where the server is built with it: 9.2 ms to write the row, not 12.6. PGlite is not; its
-- column keeps the default. Drizzle's schema has no word for a column's compression.
DO $$
BEGIN
  ALTER TABLE "audit_log" ALTER COLUMN "changes" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
