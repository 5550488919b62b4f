-- An audit row's changes kept as the JSON text the write sent (json), not taken apart into
-- jsonb: nothing searches inside them, and building a bulk's 500 jsonb values was a quarter of
-- the statement that writes them (decision 0060). The table is rewritten once.
ALTER TABLE "audit_log" ALTER COLUMN "changes" SET DATA TYPE json;--> statement-breakpoint
-- A new type resets the column's compression: lz4 again where the server has it (decision 0059).
DO $$
BEGIN
  ALTER TABLE "audit_log" ALTER COLUMN "changes" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
