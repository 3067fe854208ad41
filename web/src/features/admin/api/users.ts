import type { AdminUserPage } from '@moonrelay/contract/admin';
import { ADMIN_POLL_MS } from '@moonrelay/contract/constants';
import { useAdminPage } from './admin-query.ts';

/** GET /api/admin/users: every user, newest first, with their API key and script count. */
export const ADMIN_USERS_PATH = '/api/admin/users';
export const adminUsersKey = [ADMIN_USERS_PATH] as const;

export const useAdminUsers = (page: number) => useAdminPage<AdminUserPage>(ADMIN_USERS_PATH, page, ADMIN_POLL_MS.users);
