CREATE TABLE "code_counters" (
	"workspace_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "code_counters_workspace_id_resource_pk" PRIMARY KEY("workspace_id","resource")
);
--> statement-breakpoint
ALTER TABLE "code_counters" ADD CONSTRAINT "code_counters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;