import type { AdminConnectionList } from '@moonrelay/contract/admin';
import { ADMIN_POLL_MS } from '@moonrelay/contract/constants';
import { useAdminPage } from './admin-query.ts';

/** GET /api/admin/connections: every known game server of every user, connected ones first. */
export const ADMIN_CONNECTIONS_PATH = '/api/admin/connections';
export const adminConnectionsKey = [ADMIN_CONNECTIONS_PATH] as const;

export const useAdminConnections = (page: number) =>
  useAdminPage<AdminConnectionList>(ADMIN_CONNECTIONS_PATH, page, ADMIN_POLL_MS.connections);
