ALTER TABLE "workspaces" ADD COLUMN "time_zone" text DEFAULT 'Africa/Cairo' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "get_started_dismissed_at" timestamp with time zone;