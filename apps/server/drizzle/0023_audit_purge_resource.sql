-- A retention purge's row names the audit log by its key, `auditLog`, which the Activity page's
-- resource filter offers; rows written before named it `audit-log` and could not be filtered.
UPDATE "audit_log" SET "resource" = 'auditLog' WHERE "resource" = 'audit-log' AND "action" = 'purge';
