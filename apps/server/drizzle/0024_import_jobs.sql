CREATE TABLE "import_jobs" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"file_key" text,
	"file_name" text,
	"format" text NOT NULL,
	"rows_total" integer NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"error" jsonb,
	"locale" text NOT NULL,
	"created_by" uuid NOT NULL,
	"request_id" text,
	"address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone,
	CONSTRAINT "import_jobs_pkey" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "import_jobs_status_check" CHECK ("import_jobs"."status" in ('queued', 'running', 'done', 'failed', 'cancelled')),
	CONSTRAINT "import_jobs_rows_check" CHECK ("import_jobs"."rows_done" >= 0)
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_resource_idx" ON "import_jobs" USING btree ("workspace_id","resource","created_at");--> statement-breakpoint
CREATE INDEX "import_jobs_pending_idx" ON "import_jobs" USING btree ("status","created_at") WHERE "import_jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "import_jobs_files_idx" ON "import_jobs" USING btree ("created_at") WHERE "import_jobs"."file_key" is not null;