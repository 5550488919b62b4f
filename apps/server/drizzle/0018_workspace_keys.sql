-- Workspace tables keyed and referenced by workspace first, so that a distributed PostgreSQL
-- (Citus) can shard the schema by workspace_id (decision 0030, docs/running-on-citus.md). Every
-- row stays; the references are dropped first (they depend on the keys they point at) and made
-- again on (workspace_id, column), checked against the rows as they are.

-- The references to the old keys.
ALTER TABLE "categories" DROP CONSTRAINT "categories_parent_id_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_brand_id_brands_id_fk";
--> statement-breakpoint
ALTER TABLE "locations" DROP CONSTRAINT "locations_brand_id_brands_id_fk";
--> statement-breakpoint
ALTER TABLE "waste_categories" DROP CONSTRAINT "waste_categories_parent_id_waste_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_role_id_roles_id_fk";
--> statement-breakpoint
ALTER TABLE "product_variant_values" DROP CONSTRAINT "product_variant_values_variant_id_product_variants_id_fk";
--> statement-breakpoint
ALTER TABLE "product_variant_values" DROP CONSTRAINT "product_variant_values_value_id_variation_values_id_fk";
--> statement-breakpoint
ALTER TABLE "product_variants" DROP CONSTRAINT "product_variants_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_measurement_unit_id_measurement_units_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_category_id_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_waste_category_id_waste_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_tax_id_taxes_id_fk";
--> statement-breakpoint
ALTER TABLE "recipe_lines" DROP CONSTRAINT "recipe_lines_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "recipe_lines" DROP CONSTRAINT "recipe_lines_ingredient_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "recipe_lines" DROP CONSTRAINT "recipe_lines_ingredient_variant_id_product_variants_id_fk";
--> statement-breakpoint
ALTER TABLE "variation_values" DROP CONSTRAINT "variation_values_type_id_variation_types_id_fk";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_subscription_id_subscriptions_id_fk";
--> statement-breakpoint
-- The values of a variant carry their workspace, taken from the variant.
ALTER TABLE "product_variant_values" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
UPDATE "product_variant_values" AS link SET "workspace_id" = variant."workspace_id"
  FROM "product_variants" AS variant WHERE variant."id" = link."variant_id";
--> statement-breakpoint
ALTER TABLE "product_variant_values" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variant_values" DROP CONSTRAINT "product_variant_values_variant_id_value_id_pk";
--> statement-breakpoint

-- The keys: (workspace_id, id), or the table's own key after the workspace.
ALTER TABLE "brands" DROP CONSTRAINT "brands_pkey", ADD CONSTRAINT "brands_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_pkey", ADD CONSTRAINT "categories_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pkey", ADD CONSTRAINT "customers_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "exchange_rates" DROP CONSTRAINT "exchange_rates_pkey", ADD CONSTRAINT "exchange_rates_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "locations" DROP CONSTRAINT "locations_pkey", ADD CONSTRAINT "locations_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "measurement_units" DROP CONSTRAINT "measurement_units_pkey", ADD CONSTRAINT "measurement_units_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "product_tags" DROP CONSTRAINT "product_tags_pkey", ADD CONSTRAINT "product_tags_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "taxes" DROP CONSTRAINT "taxes_pkey", ADD CONSTRAINT "taxes_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "waste_categories" DROP CONSTRAINT "waste_categories_pkey", ADD CONSTRAINT "waste_categories_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "invites" DROP CONSTRAINT "invites_pkey", ADD CONSTRAINT "invites_pkey" PRIMARY KEY ("workspace_id","token_hash");
--> statement-breakpoint
ALTER TABLE "roles" DROP CONSTRAINT "roles_pkey", ADD CONSTRAINT "roles_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "uploads" DROP CONSTRAINT "uploads_pkey", ADD CONSTRAINT "uploads_pkey" PRIMARY KEY ("workspace_id","path");
--> statement-breakpoint
ALTER TABLE "oauth_grants" DROP CONSTRAINT "oauth_grants_pkey", ADD CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("workspace_id","grant_id");
--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_pkey" PRIMARY KEY ("workspace_id","variant_id","value_id");
--> statement-breakpoint
ALTER TABLE "product_variants" DROP CONSTRAINT "product_variants_pkey", ADD CONSTRAINT "product_variants_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_pkey", ADD CONSTRAINT "products_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "recipe_lines" DROP CONSTRAINT "recipe_lines_pkey", ADD CONSTRAINT "recipe_lines_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "variation_types" DROP CONSTRAINT "variation_types_pkey", ADD CONSTRAINT "variation_types_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "variation_values" DROP CONSTRAINT "variation_values_pkey", ADD CONSTRAINT "variation_values_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey", ADD CONSTRAINT "invoices_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_pkey", ADD CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("workspace_id","id");
--> statement-breakpoint

-- The references again, each inside its workspace.
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fk" FOREIGN KEY ("workspace_id","parent_id") REFERENCES "public"."categories"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_brand_id_fk" FOREIGN KEY ("workspace_id","brand_id") REFERENCES "public"."brands"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_brand_id_fk" FOREIGN KEY ("workspace_id","brand_id") REFERENCES "public"."brands"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "waste_categories" ADD CONSTRAINT "waste_categories_parent_id_fk" FOREIGN KEY ("workspace_id","parent_id") REFERENCES "public"."waste_categories"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_id_fk" FOREIGN KEY ("workspace_id","role_id") REFERENCES "public"."roles"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_variant_id_fk" FOREIGN KEY ("workspace_id","variant_id") REFERENCES "public"."product_variants"("workspace_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_value_id_fk" FOREIGN KEY ("workspace_id","value_id") REFERENCES "public"."variation_values"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_fk" FOREIGN KEY ("workspace_id","product_id") REFERENCES "public"."products"("workspace_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_measurement_unit_id_fk" FOREIGN KEY ("workspace_id","measurement_unit_id") REFERENCES "public"."measurement_units"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_fk" FOREIGN KEY ("workspace_id","category_id") REFERENCES "public"."categories"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_waste_category_id_fk" FOREIGN KEY ("workspace_id","waste_category_id") REFERENCES "public"."waste_categories"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tax_id_fk" FOREIGN KEY ("workspace_id","tax_id") REFERENCES "public"."taxes"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_product_id_fk" FOREIGN KEY ("workspace_id","product_id") REFERENCES "public"."products"("workspace_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_ingredient_product_id_fk" FOREIGN KEY ("workspace_id","ingredient_product_id") REFERENCES "public"."products"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "recipe_lines" ADD CONSTRAINT "recipe_lines_ingredient_variant_id_fk" FOREIGN KEY ("workspace_id","ingredient_variant_id") REFERENCES "public"."product_variants"("workspace_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "variation_values" ADD CONSTRAINT "variation_values_type_id_fk" FOREIGN KEY ("workspace_id","type_id") REFERENCES "public"."variation_types"("workspace_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscription_id_fk" FOREIGN KEY ("workspace_id","subscription_id") REFERENCES "public"."subscriptions"("workspace_id","id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint

-- Unique indexes lead with the workspace; lookups by a token or grant id alone keep an index (the
-- key leads with the workspace), and the uploads' workspace index is now the key's.
DROP INDEX "uploads_workspace_idx";
--> statement-breakpoint
DROP INDEX "product_variants_product_key_unique";
--> statement-breakpoint
DROP INDEX "variation_values_type_name_en_unique";
--> statement-breakpoint
DROP INDEX "variation_values_type_name_ar_unique";
--> statement-breakpoint
CREATE INDEX "invites_token_idx" ON "invites" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "oauth_grants_grant_idx" ON "oauth_grants" USING btree ("grant_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_product_key_unique" ON "product_variants" USING btree ("workspace_id","product_id","key");
--> statement-breakpoint
CREATE UNIQUE INDEX "variation_values_type_name_en_unique" ON "variation_values" USING btree ("workspace_id","type_id",lower("name_en")) WHERE "variation_values"."name_en" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "variation_values_type_name_ar_unique" ON "variation_values" USING btree ("workspace_id","type_id",lower("name_ar")) WHERE "variation_values"."name_ar" is not null;
