DROP INDEX "brands_search_idx";--> statement-breakpoint
DROP INDEX "categories_search_idx";--> statement-breakpoint
DROP INDEX "customers_search_idx";--> statement-breakpoint
DROP INDEX "locations_search_idx";--> statement-breakpoint
DROP INDEX "measurement_units_search_idx";--> statement-breakpoint
DROP INDEX "product_tags_search_idx";--> statement-breakpoint
DROP INDEX "taxes_search_idx";--> statement-breakpoint
DROP INDEX "waste_categories_search_idx";--> statement-breakpoint
CREATE INDEX "brands_search_idx" ON "brands" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "categories_search_idx" ON "categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "locations_search_idx" ON "locations" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "measurement_units_search_idx" ON "measurement_units" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "product_tags_search_idx" ON "product_tags" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "taxes_search_idx" ON "taxes" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "waste_categories_search_idx" ON "waste_categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);