CREATE TABLE "invites" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_role_id_roles_id_fk";
--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "role_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "is_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "applications" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
-- Data: every workspace admin becomes an active admin membership (keeping a role they held),
-- then the admins table goes.
INSERT INTO "memberships" ("workspace_id", "user_id", "is_admin", "status", "created_at", "updated_at")
SELECT "workspace_id", "user_id", true, 'active', "created_at", "created_at" FROM "workspace_admins"
ON CONFLICT ("workspace_id", "user_id") DO UPDATE SET "is_admin" = true, "status" = 'active';--> statement-breakpoint
ALTER TABLE "workspace_admins" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "workspace_admins" CASCADE;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_membership_fk" FOREIGN KEY ("workspace_id","user_id") REFERENCES "public"."memberships"("workspace_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_membership_idx" ON "invites" USING btree ("workspace_id","user_id");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_role_idx" ON "memberships" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships__code__unique" ON "memberships" USING btree ("workspace_id","code");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_status_check" CHECK ("memberships"."status" in ('active', 'inactive', 'invited'));