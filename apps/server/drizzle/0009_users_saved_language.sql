ALTER TABLE "users" ALTER COLUMN "language" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "language" DROP NOT NULL;