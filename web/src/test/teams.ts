import { vi } from 'vitest';
import {
  ROLE_PERMISSIONS,
  roleOf,
  TEAM_PERMISSIONS,
  type TeamPermission,
  type TeamSummary,
} from '@moonrelay/contract/teams';
import { useTeam } from '../lib/team.ts';
import { jsonFetch } from './render.tsx';

/** The signed-in test user's own account as GET /api/teams lists it (first, personal). */
export function personalTeam(overrides: Partial<TeamSummary> = {}): TeamSummary {
  return {
    id: 'u1',
    name: 'Ada',
    personal: true,
    role: 'owner',
    permissions: [...TEAM_PERMISSIONS],
    members: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A team the test user belongs to, as GET /api/teams lists it; a developer unless told otherwise. */
export function testTeam(overrides: Partial<TeamSummary> = {}): TeamSummary {
  return {
    id: 't1',
    name: 'Studio',
    personal: false,
    role: 'developer',
    permissions: [...ROLE_PERMISSIONS.developer],
    members: 3,
    createdAt: '2026-02-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Acts on `teamId` as a browser that chose it before would (the team gate is not involved). */
export function chooseTeam(teamId: string | null): void {
  useTeam.getState().setTeam(teamId);
}

/**
 * Stubs the API with `routes`, GET /api/teams listing the person's own account and Studio (t1),
 * where they hold `permissions`. Every call is recorded as "METHOD /path" (without the query), so a
 * test can show that an endpoint the role may not call was never asked.
 */
export function teamApi(
  permissions: readonly TeamPermission[],
  routes: Parameters<typeof jsonFetch>[0] = {},
): { calls: string[] } {
  const calls: string[] = [];
  const respond = jsonFetch({
    'GET /api/teams': () => ({
      body: [personalTeam(), testTeam({ role: roleOf(permissions), permissions: [...permissions] })],
    }),
    ...routes,
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
    return respond(input, init);
  });
  return { calls };
}
