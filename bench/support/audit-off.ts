/**
 * The server's entry with the audit log's recording turned off: what `startServer` runs when
 * `AUDIT_LOG=off` (the cost benchmarks' "without the log" side). Only the benchmarks read the
 * variable; the server itself always records.
 */
import { setAuditRecording } from '../../apps/server/src/db/audit-log.ts';

setAuditRecording(false);
await import('../../apps/server/src/main.ts');
