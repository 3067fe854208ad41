import type { AdminTeamPage } from '@moonrelay/contract/teams';
import { useAdminPage } from './admin-query.ts';

/** GET /api/admin/teams: every team, newest first, with its members, their roles and its script count. */
export const ADMIN_TEAMS_PATH = '/api/admin/teams';
export const adminTeamsKey = [ADMIN_TEAMS_PATH] as const;

/**
 * Polled even while the live socket is up: a team's changes (members joining, leaving, changing
 * role) are heard only on the team's own sockets, never an admin's. As often as the audit log:
 * teams change about as rarely, and nothing on this tab is urgent. (The contract's ADMIN_POLL_MS
 * names no interval for teams.)
 */
export const ADMIN_TEAMS_POLL_MS = 30_000;

export const useAdminTeams = (page: number) =>
  useAdminPage<AdminTeamPage>(ADMIN_TEAMS_PATH, page, ADMIN_TEAMS_POLL_MS, { live: false });
