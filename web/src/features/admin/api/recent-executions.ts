import type { RecentExecutionPage } from '@moonrelay/contract/admin';
import { ADMIN_POLL_MS } from '@moonrelay/contract/constants';
import { useAdminPage } from './admin-query.ts';

/** GET /api/admin/recent-executions: executions of every user, newest first. */
export const ADMIN_EXECUTIONS_PATH = '/api/admin/recent-executions';
export const adminExecutionsKey = [ADMIN_EXECUTIONS_PATH] as const;

export const useRecentExecutions = (page: number) =>
  useAdminPage<RecentExecutionPage>(ADMIN_EXECUTIONS_PATH, page, ADMIN_POLL_MS.executions);
