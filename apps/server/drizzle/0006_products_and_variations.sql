CREATE TABLE "product_variant_values" (
	"variant_id" uuid NOT NULL,
	"value_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "product_variant_values_variant_id_value_id_pk" PRIMARY KEY("variant_id","value_id")
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"key" text NOT NULL,
	"position" integer NOT NULL,
	"sku" text,
	"barcode" text,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text,
	"name_ar" text,
	"measurement_unit_id" uuid NOT NULL,
	"category_id" uuid,
	"waste_category_id" uuid,
	"tag_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variants_count" integer DEFAULT 0 NOT NULL,
	"variant_codes" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(variant_codes, ''))) STORED NOT NULL,
	CONSTRAINT "products_name_present" CHECK ("products"."name_en" is not null or "products"."name_ar" is not null)
);
--> statement-breakpoint
CREATE TABLE "recipe_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"ingredient_product_id" uuid NOT NULL,
	"ingredient_variant_id" uuid,
	"quantity" numeric(18, 6) NOT NULL,
	"order_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"brand_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	CONSTRAINT "recipe_lines_quantity_positive" CHECK ("recipe_lines"."quantity" > 0),
	CONSTRAINT "recipe_lines_not_itself" CHECK ("recipe_lines"."ingredient_product_id" <> "recipe_lines"."product_id")
);
--> statement-breakpoint
CREATE TABLE "variation_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text,
	"name_ar" text,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, ''))) STORED NOT NULL,
	CONSTRAINT "variation_types_name_present" CHECK ("variation_types"."name_en" is not null or "variation_types"."name_ar" is not null)
);
--> statement-breakpoint
CREATE TABLE "variation_values" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text,
	"name_ar" text,
	"type_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, ''))) STORED NOT NULL,
	CONSTRAINT "variation_values_name_present" CHECK ("variation_values"."name_en" is not null or "variation_values"."name_ar" is not null)
);
--> statement-breakpoint
DROP INDEX "brands_name_en_idx";--> statement-breakpoint
DROP INDEX "categories_name_en_idx";--> statement-breakpoint
DROP INDEX "locations_name_en_idx";--> statement-breakpoint
DROP INDEX "measurement_units_name_en_idx";--> statement-breakpoint
DROP INDEX "product_tags_name_en_idx";--> statement-breakpoint
DROP INDEX "waste_categories_name_en_idx";--> statement-breakpoint
ALTER TABLE "brands" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "measurement_units" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "product_tags" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "waste_categories" ALTER COLUMN "name_en" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_value_id_variation_values_id_fk" FOREIGN KEY ("value_id") REFERENCES "public"."variation_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_measurement_unit_id_measurement_units_id_fk" FOREIGN KEY ("measurement_unit_id") REFERENCES "public"."measurement_units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_waste_category_id_waste_categories_id_fk" FOREIGN KEY ("waste_category_id") REFERENCES "public"."waste_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_ingredient_product_id_products_id_fk" FOREIGN KEY ("ingredient_product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_ingredient_variant_id_product_variants_id_fk" FOREIGN KEY ("ingredient_variant_id") REFERENCES "public"."product_variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variation_types" ADD CONSTRAINT "variation_types_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variation_values" ADD CONSTRAINT "variation_values_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variation_values" ADD CONSTRAINT "variation_values_type_id_variation_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."variation_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_variant_values_value_idx" ON "product_variant_values" USING btree ("value_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_product_key_unique" ON "product_variants" USING btree ("product_id","key");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants__sku__unique" ON "product_variants" USING btree ("workspace_id","sku" collate "und-x-icu") WHERE "product_variants"."sku" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants__barcode__unique" ON "product_variants" USING btree ("workspace_id","barcode") WHERE "product_variants"."barcode" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "products__code__unique" ON "products" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "products_name_en_idx" ON "products" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "products_name_ar_idx" ON "products" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "products_variants_count_idx" ON "products" USING btree ("workspace_id","variants_count");--> statement-breakpoint
CREATE INDEX "products_unit_idx" ON "products" USING btree ("workspace_id","measurement_unit_id");--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("workspace_id","category_id");--> statement-breakpoint
CREATE INDEX "products_waste_category_idx" ON "products" USING btree ("waste_category_id");--> statement-breakpoint
CREATE INDEX "products_tags_idx" ON "products" USING gin ("tag_ids");--> statement-breakpoint
CREATE INDEX "recipe_lines_product_idx" ON "recipe_lines" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "recipe_lines_ingredient_idx" ON "recipe_lines" USING btree ("ingredient_product_id");--> statement-breakpoint
CREATE INDEX "recipe_lines_ingredient_variant_idx" ON "recipe_lines" USING btree ("ingredient_variant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variation_types__code__unique" ON "variation_types" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "variation_types_created_idx" ON "variation_types" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "variation_types_search_idx" ON "variation_types" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "variation_types_name_en_idx" ON "variation_types" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "variation_types_name_ar_idx" ON "variation_types" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE UNIQUE INDEX "variation_values__code__unique" ON "variation_values" USING btree ("workspace_id","code" collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "variation_values_created_idx" ON "variation_values" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "variation_values_search_idx" ON "variation_values" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "variation_values_name_en_idx" ON "variation_values" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "variation_values_name_ar_idx" ON "variation_values" USING btree ("workspace_id",coalesce("name_ar", "name_en") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "variation_values_position_idx" ON "variation_values" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE INDEX "variation_values_type_idx" ON "variation_values" USING btree ("type_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "variation_values_type_name_en_unique" ON "variation_values" USING btree ("type_id",lower("name_en")) WHERE "variation_values"."name_en" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "variation_values_type_name_ar_unique" ON "variation_values" USING btree ("type_id",lower("name_ar")) WHERE "variation_values"."name_ar" is not null;--> statement-breakpoint
CREATE INDEX "brands_name_en_idx" ON "brands" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "categories_name_en_idx" ON "categories" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "locations_name_en_idx" ON "locations" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "measurement_units_name_en_idx" ON "measurement_units" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "product_tags_name_en_idx" ON "product_tags" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
CREATE INDEX "waste_categories_name_en_idx" ON "waste_categories" USING btree ("workspace_id",coalesce("name_en", "name_ar") collate "und-x-icu");--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_name_present" CHECK ("brands"."name_en" is not null or "brands"."name_ar" is not null);--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_name_present" CHECK ("categories"."name_en" is not null or "categories"."name_ar" is not null);--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_name_present" CHECK ("locations"."name_en" is not null or "locations"."name_ar" is not null);--> statement-breakpoint
ALTER TABLE "measurement_units" ADD CONSTRAINT "measurement_units_name_present" CHECK ("measurement_units"."name_en" is not null or "measurement_units"."name_ar" is not null);--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_name_present" CHECK ("product_tags"."name_en" is not null or "product_tags"."name_ar" is not null);--> statement-breakpoint
ALTER TABLE "waste_categories" ADD CONSTRAINT "waste_categories_name_present" CHECK ("waste_categories"."name_en" is not null or "waste_categories"."name_ar" is not null);