-- Trigram indexes serve the lists' ILIKE search (search_text).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"logo" text,
	"creation_date" date,
	"currencies" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, ''))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"description" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(description, ''))) STORED NOT NULL,
	"parent_id" uuid
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"phones" text[] NOT NULL,
	"phones_text" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"brand_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name, '') || ' ' || coalesce(phones_text, ''))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(24, 8) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_rate_positive" CHECK ("exchange_rates"."rate" > 0)
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"brand_id" uuid NOT NULL,
	"opening_date" date,
	"working_hours" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"phones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(address, ''))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "measurement_units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"symbol" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(symbol, ''))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, ''))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "taxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"country" text NOT NULL,
	"rate" numeric(7, 4) NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(title, '') || ' ' || coalesce(country, ''))) STORED NOT NULL,
	CONSTRAINT "taxes_rate_range" CHECK ("taxes"."rate" >= 0 and "taxes"."rate" <= 100)
);
--> statement-breakpoint
CREATE TABLE "waste_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text,
	"description" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(description, ''))) STORED NOT NULL,
	"parent_id" uuid
);
--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_units" ADD CONSTRAINT "measurement_units_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxes" ADD CONSTRAINT "taxes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waste_categories" ADD CONSTRAINT "waste_categories_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waste_categories" ADD CONSTRAINT "waste_categories_parent_id_waste_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."waste_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brands__code__unique" ON "brands" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "brands_created_idx" ON "brands" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "brands_search_idx" ON "brands" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "brands_name_en_idx" ON "brands" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE INDEX "brands_creation_date_idx" ON "brands" USING btree ("workspace_id","creation_date");--> statement-breakpoint
CREATE UNIQUE INDEX "categories__code__unique" ON "categories" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "categories_created_idx" ON "categories" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "categories_search_idx" ON "categories" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "categories_name_en_idx" ON "categories" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers__code__unique" ON "customers" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "customers_source_idx" ON "customers" USING btree ("workspace_id","source");--> statement-breakpoint
CREATE INDEX "customers_brand_idx" ON "customers" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_rates__currency__unique" ON "exchange_rates" USING btree ("workspace_id","currency");--> statement-breakpoint
CREATE INDEX "exchange_rates_rate_idx" ON "exchange_rates" USING btree ("workspace_id","rate");--> statement-breakpoint
CREATE INDEX "exchange_rates_created_idx" ON "exchange_rates" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "locations__code__unique" ON "locations" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "locations_created_idx" ON "locations" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "locations_search_idx" ON "locations" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "locations_name_en_idx" ON "locations" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE INDEX "locations_opening_date_idx" ON "locations" USING btree ("workspace_id","opening_date");--> statement-breakpoint
CREATE INDEX "locations_brand_idx" ON "locations" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "measurement_units__code__unique" ON "measurement_units" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "measurement_units_created_idx" ON "measurement_units" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "measurement_units_search_idx" ON "measurement_units" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "measurement_units_name_en_idx" ON "measurement_units" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE INDEX "measurement_units_symbol_idx" ON "measurement_units" USING btree ("workspace_id","symbol");--> statement-breakpoint
CREATE UNIQUE INDEX "product_tags__code__unique" ON "product_tags" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "product_tags_created_idx" ON "product_tags" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "product_tags_search_idx" ON "product_tags" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_tags_name_en_idx" ON "product_tags" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE UNIQUE INDEX "taxes__code__unique" ON "taxes" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "taxes_created_idx" ON "taxes" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "taxes_search_idx" ON "taxes" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "taxes_title_idx" ON "taxes" USING btree ("workspace_id","title");--> statement-breakpoint
CREATE INDEX "taxes_country_idx" ON "taxes" USING btree ("workspace_id","country");--> statement-breakpoint
CREATE INDEX "taxes_rate_idx" ON "taxes" USING btree ("workspace_id","rate");--> statement-breakpoint
CREATE UNIQUE INDEX "waste_categories__code__unique" ON "waste_categories" USING btree ("workspace_id","code");--> statement-breakpoint
CREATE INDEX "waste_categories_created_idx" ON "waste_categories" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "waste_categories_search_idx" ON "waste_categories" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "waste_categories_name_en_idx" ON "waste_categories" USING btree ("workspace_id","name_en");--> statement-breakpoint
CREATE INDEX "waste_categories_parent_idx" ON "waste_categories" USING btree ("parent_id");