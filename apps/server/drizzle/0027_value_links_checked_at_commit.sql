ALTER TABLE "product_variant_values" DROP CONSTRAINT "product_variant_values_workspace_id_workspaces_id_fk";
--> statement-breakpoint
-- Hand-written (drizzle-kit cannot declare it; schema/products.ts says why): a link's value is
-- checked at commit, when a workspace's removal has taken the links with their variants.
ALTER TABLE "product_variant_values" ALTER CONSTRAINT "product_variant_values_value_id_fk" DEFERRABLE INITIALLY DEFERRED;
