import { useMemo } from 'react';
import type { ConsolePage } from '@moonrelay/contract/console';
import type { ConsoleFilter } from '../../../components/console/console-feed.ts';
import { consoleSearch, type ConsoleSource } from '../../../components/console/console-source.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * An admin's view of one user's game console (GET /api/admin/users/{id}/console). Admins do not
 * receive that user's `console:lines` events, so the newest lines are polled every few seconds
 * while the view is open.
 */
export const ADMIN_CONSOLE_POLL_MS = 3_000;

export const adminUserConsolePath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/console`;

export function useAdminConsoleSource(userId: string): ConsoleSource {
  return useMemo(() => {
    const path = adminUserConsolePath(userId);
    return {
      queryKey: [path],
      fetchPage: (filter: ConsoleFilter, cursor: string | null) =>
        apiRequest<ConsolePage>('GET', path + consoleSearch(filter, cursor)),
      live: false,
      pollMs: ADMIN_CONSOLE_POLL_MS,
    };
  }, [userId]);
}
