import type { AuditPage } from '@moonrelay/contract/admin';
import { ADMIN_POLL_MS } from '@moonrelay/contract/constants';
import { useAdminPage } from './admin-query.ts';

/** GET /api/admin/audit: the audit log, newest first. */
export const ADMIN_AUDIT_PATH = '/api/admin/audit';
export const adminAuditKey = [ADMIN_AUDIT_PATH] as const;

export const useAuditLog = (page: number) => useAdminPage<AuditPage>(ADMIN_AUDIT_PATH, page, ADMIN_POLL_MS.audit);
