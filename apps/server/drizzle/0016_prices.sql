ALTER TABLE "product_variants" ADD COLUMN "price" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "cost" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cost" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tax_id" uuid;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "prices_include_tax" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_min" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_max" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tax_id_taxes_id_fk" FOREIGN KEY ("tax_id") REFERENCES "public"."taxes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_price_min_idx" ON "products" USING btree ("workspace_id","price_min");--> statement-breakpoint
CREATE INDEX "products_price_min_desc_idx" ON "products" USING btree ("workspace_id","price_min" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_tax_idx" ON "products" USING btree ("tax_id");--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_price_not_negative" CHECK ("product_variants"."price" >= 0 and "product_variants"."cost" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_not_negative" CHECK ("products"."price" >= 0 and "products"."cost" >= 0);--> statement-breakpoint
-- Every price so far is 0: a product shows 0 when it sells by itself or has an active variant.
UPDATE "products" SET "price_min" = 0, "price_max" = 0
WHERE "variants_count" = 0
   OR EXISTS (SELECT 1 FROM "product_variants" v WHERE v."product_id" = "products"."id" AND v."status" = 'active');
