import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';
import { isTeamPermission, ROLE_PERMISSIONS, roleOf, TEAM_PERMISSIONS } from './teams.ts';

describe('team permissions in the contract', () => {
  it('documents the 403 of every endpoint that acts on a team (a member may lack its permission)', () => {
    const undocumented = Object.entries(endpoints)
      .filter(([, endpoint]) => isTeamPermission(endpoint.permission) || endpoint.permission === 'member')
      .filter(([, endpoint]) => !(endpoint.errors as readonly number[]).includes(403))
      .map(([name]) => name);
    expect(undocumented).toEqual([]);
  });

  it('names each preset by its permissions, and anything else custom', () => {
    for (const role of ['owner', 'admin', 'developer', 'moderator', 'viewer'] as const) {
      expect(roleOf([...ROLE_PERMISSIONS[role]].reverse())).toBe(role);
    }
    expect(roleOf(['scripts.read'])).toBe('custom');
    expect(roleOf([])).toBe('custom');
  });

  it('gives an admin everything but deleting the team, and a moderator nothing of scripts or runs', () => {
    expect(TEAM_PERMISSIONS.filter((permission) => !ROLE_PERMISSIONS.admin.includes(permission))).toEqual([
      'team.delete',
    ]);
    expect(ROLE_PERMISSIONS.moderator.filter((permission) => /^(scripts|runs)\./.test(permission))).toEqual([]);
  });
});
