DROP INDEX "brands__code__unique";--> statement-breakpoint
DROP INDEX "brands_name_en_idx";--> statement-breakpoint
DROP INDEX "categories__code__unique";--> statement-breakpoint
DROP INDEX "categories_name_en_idx";--> statement-breakpoint
DROP INDEX "customers__code__unique";--> statement-breakpoint
DROP INDEX "customers_name_idx";--> statement-breakpoint
DROP INDEX "customers_source_idx";--> statement-breakpoint
DROP INDEX "exchange_rates__currency__unique";--> statement-breakpoint
DROP INDEX "locations__code__unique";--> statement-breakpoint
DROP INDEX "locations_name_en_idx";--> statement-breakpoint
DROP INDEX "measurement_units__code__unique";--> statement-breakpoint
DROP INDEX "measurement_units_name_en_idx";--> statement-breakpoint
DROP INDEX "measurement_units_symbol_idx";--> statement-breakpoint
DROP INDEX "product_tags__code__unique";--> statement-breakpoint
DROP INDEX "product_tags_name_en_idx";--> statement-breakpoint
DROP INDEX "taxes__code__unique";--> statement-breakpoint
DROP INDEX "taxes_title_idx";--> statement-breakpoint
DROP INDEX "taxes_country_idx";--> statement-breakpoint
DROP INDEX "waste_categories__code__unique";--> statement-breakpoint
DROP INDEX "waste_categories_name_en_idx";--> statement-breakpoint
DROP INDEX "roles__code__unique";--> statement-breakpoint
CREATE INDEX "brands_name_ar_idx" ON "brands" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "categories_name_ar_idx" ON "categories" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "locations_name_ar_idx" ON "locations" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "measurement_units_name_ar_idx" ON "measurement_units" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "product_tags_name_ar_idx" ON "product_tags" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "waste_categories_name_ar_idx" ON "waste_categories" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "brands__code__unique" ON "brands" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "brands_name_en_idx" ON "brands" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "categories__code__unique" ON "categories" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "categories_name_en_idx" ON "categories" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "customers__code__unique" ON "customers" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("workspace_id","name" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "customers_source_idx" ON "customers" USING btree ("workspace_id","source" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_rates__currency__unique" ON "exchange_rates" USING btree ("workspace_id","currency" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "locations__code__unique" ON "locations" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "locations_name_en_idx" ON "locations" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "measurement_units__code__unique" ON "measurement_units" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "measurement_units_name_en_idx" ON "measurement_units" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "measurement_units_symbol_idx" ON "measurement_units" USING btree ("workspace_id","symbol" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "product_tags__code__unique" ON "product_tags" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "product_tags_name_en_idx" ON "product_tags" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "taxes__code__unique" ON "taxes" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "taxes_title_idx" ON "taxes" USING btree ("workspace_id","title" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "taxes_country_idx" ON "taxes" USING btree ("workspace_id","country" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "waste_categories__code__unique" ON "waste_categories" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "waste_categories_name_en_idx" ON "waste_categories" USING btree ("workspace_id","name_en" collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "roles__code__unique" ON "roles" USING btree ("workspace_id","code" collate "und-x-icu");