/**
 * Audit log: what other resources, importers and tests may import. An audited use case calls
 * `recordAudit(tx, {projectId, action, target, before, after})` in its transaction.
 */
export {
  changes,
  DEFAULT_RETENTION_DAYS,
  pruneAuditLog,
  recordAudit,
  redact,
  REDACTED,
  type AuditInput,
} from './service.ts';
