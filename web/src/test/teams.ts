import { ROLE_PERMISSIONS, TEAM_PERMISSIONS, type TeamSummary } from '@moonrelay/contract/teams';
import { useTeam } from '../lib/team.ts';

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
