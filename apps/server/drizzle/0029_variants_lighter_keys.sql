ALTER TABLE "product_variants" DROP CONSTRAINT "product_variants_workspace_id_workspaces_id_fk";
--> statement-breakpoint
DROP INDEX "product_variants_product_idx";--> statement-breakpoint
ALTER TABLE "product_variant_values" DROP CONSTRAINT "product_variant_values_pkey";
--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_pkey" PRIMARY KEY("workspace_id","variant_id","position");