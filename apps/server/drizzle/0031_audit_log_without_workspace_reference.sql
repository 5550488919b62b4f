ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_workspace_id_workspaces_id_fk";
--> statement-breakpoint
-- Hand-written (drizzle-kit declares no function or trigger): a removed workspace's audit rows go
-- with it, as the dropped reference's cascade took them, by one statement per delete of
-- workspaces rather than one check per audit row written (decision 0056).
CREATE FUNCTION audit_log_remove_workspaces() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM audit_log WHERE workspace_id IN (SELECT id FROM removed);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "workspaces_audit_log_remove" AFTER DELETE ON "workspaces" REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION audit_log_remove_workspaces();
