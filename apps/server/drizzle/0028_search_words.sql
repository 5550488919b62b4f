CREATE TABLE "search_words" (
	"workspace_id" uuid NOT NULL,
	"list" text NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "search_words_pkey" PRIMARY KEY("workspace_id","list","word")
);
--> statement-breakpoint
ALTER TABLE "search_words" ADD CONSTRAINT "search_words_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_words_word_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
-- Hand-written (drizzle-kit declares no function or trigger): the words of every record's
-- search_text, added by one statement per write (a statement-level trigger over the written rows,
-- so a bulk create or an import pays one insert, not one per row), then the words of the records
-- already there. A word is a stretch between spaces, the field separator chr(31), ASCII digits
-- and ASCII punctuation, so codes and barcodes add none. Words of deleted or edited records stay:
-- a word no record holds finds none (decision 0050).
CREATE FUNCTION search_words_of(value text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT word FROM regexp_split_to_table(value, '[\s0-9\x1f!-/:-@[-`{-~]+') AS word WHERE word <> '' $$;
--> statement-breakpoint
CREATE FUNCTION search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (workspace_id, list, word)
  SELECT DISTINCT written.workspace_id, TG_TABLE_NAME, word
  FROM written, search_words_of(written.search_text) AS word
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "brands_search_words_insert" AFTER INSERT ON "brands" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "brands_search_words_update" AFTER UPDATE ON "brands" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "categories_search_words_insert" AFTER INSERT ON "categories" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "categories_search_words_update" AFTER UPDATE ON "categories" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "customers_search_words_insert" AFTER INSERT ON "customers" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "customers_search_words_update" AFTER UPDATE ON "customers" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "locations_search_words_insert" AFTER INSERT ON "locations" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "locations_search_words_update" AFTER UPDATE ON "locations" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "measurement_units_search_words_insert" AFTER INSERT ON "measurement_units" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "measurement_units_search_words_update" AFTER UPDATE ON "measurement_units" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "product_tags_search_words_insert" AFTER INSERT ON "product_tags" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "product_tags_search_words_update" AFTER UPDATE ON "product_tags" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "taxes_search_words_insert" AFTER INSERT ON "taxes" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "taxes_search_words_update" AFTER UPDATE ON "taxes" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "waste_categories_search_words_insert" AFTER INSERT ON "waste_categories" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "waste_categories_search_words_update" AFTER UPDATE ON "waste_categories" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "products_search_words_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "products_search_words_update" AFTER UPDATE ON "products" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "variation_types_search_words_insert" AFTER INSERT ON "variation_types" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "variation_types_search_words_update" AFTER UPDATE ON "variation_types" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "variation_values_search_words_insert" AFTER INSERT ON "variation_values" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
CREATE TRIGGER "variation_values_search_words_update" AFTER UPDATE ON "variation_values" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'brands', word FROM "brands", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'categories', word FROM "categories", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'customers', word FROM "customers", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'locations', word FROM "locations", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'measurement_units', word FROM "measurement_units", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'product_tags', word FROM "product_tags", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'taxes', word FROM "taxes", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'waste_categories', word FROM "waste_categories", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'products', word FROM "products", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'variation_types', word FROM "variation_types", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_words (workspace_id, list, word) SELECT DISTINCT workspace_id, 'variation_values', word FROM "variation_values", search_words_of(search_text) AS word ON CONFLICT DO NOTHING;
