-- Localized tax titles and category / waste category descriptions: each text becomes two
-- columns, <field>_en and <field>_ar, at least one of them set (like a name's). A stored text goes
-- to the language it is written in: Latin letters and no Arabic ones make it the English value
-- only, Arabic letters and no Latin ones the Arabic value only; a text with both scripts or with
-- neither (a code, "14%") becomes both values. Every reader then sees what they saw before (a text
-- in one language is shown, sorted and found in the other language's place too), and the form's
-- box of the missing language is empty, asking for a translation, instead of holding the other
-- language's words as if they were one. The script classes are the letters of Unicode's Arabic
-- blocks and of Latin-1 and Latin Extended-A/B. search_text and its trigram index are made again
-- over both columns; a tax's title sorts per reading language like a name.
ALTER TABLE "taxes" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "title_ar" text;--> statement-breakpoint
UPDATE "taxes" SET
  "title_en" = CASE WHEN "title" ~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' AND "title" !~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' THEN NULL ELSE "title" END,
  "title_ar" = CASE WHEN "title" ~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' AND "title" !~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' THEN NULL ELSE "title" END;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "description_en" text;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "description_ar" text;--> statement-breakpoint
UPDATE "categories" SET
  "description_en" = CASE WHEN "description" ~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' AND "description" !~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' THEN NULL ELSE "description" END,
  "description_ar" = CASE WHEN "description" ~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' AND "description" !~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' THEN NULL ELSE "description" END;--> statement-breakpoint
ALTER TABLE "waste_categories" ADD COLUMN "description_en" text;--> statement-breakpoint
ALTER TABLE "waste_categories" ADD COLUMN "description_ar" text;--> statement-breakpoint
UPDATE "waste_categories" SET
  "description_en" = CASE WHEN "description" ~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' AND "description" !~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' THEN NULL ELSE "description" END,
  "description_ar" = CASE WHEN "description" ~ '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]' AND "description" !~ '[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]' THEN NULL ELSE "description" END;--> statement-breakpoint
DROP INDEX "taxes_title_idx";--> statement-breakpoint
ALTER TABLE "taxes" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "categories" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "waste_categories" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "taxes" DROP COLUMN "title";--> statement-breakpoint
ALTER TABLE "categories" DROP COLUMN "description";--> statement-breakpoint
ALTER TABLE "waste_categories" DROP COLUMN "description";--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(title_en, '') || ' ' || coalesce(title_ar, '') || ' ' || coalesce(country, ''))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(description_en, '') || ' ' || coalesce(description_ar, ''))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "waste_categories" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(description_en, '') || ' ' || coalesce(description_ar, ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "taxes_search_idx" ON "taxes" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "categories_search_idx" ON "categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "waste_categories_search_idx" ON "waste_categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "taxes_title_en_idx" ON "taxes" USING btree ("workspace_id",coalesce("title_en", "title_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "taxes_title_ar_idx" ON "taxes" USING btree ("workspace_id",coalesce("title_ar", "title_en") collate "und-x-icu");--> statement-breakpoint
ALTER TABLE "taxes" ADD CONSTRAINT "taxes_title_present" CHECK ("taxes"."title_en" is not null or "taxes"."title_ar" is not null);--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_description_present" CHECK ("categories"."description_en" is not null or "categories"."description_ar" is not null);--> statement-breakpoint
ALTER TABLE "waste_categories" ADD CONSTRAINT "waste_categories_description_present" CHECK ("waste_categories"."description_en" is not null or "waste_categories"."description_ar" is not null);