import {
  ROLE_PERMISSIONS,
  TEAM_PERMISSIONS,
  type Grant,
  type PresetRole,
  type TeamPermission,
  type TeamRole,
} from '@moonrelay/contract/teams';

/** The presets one can give, most access first. */
export const PRESET_ROLES: readonly PresetRole[] = ['owner', 'admin', 'developer', 'moderator', 'viewer'];

/** What an invitation or a member is to get: a preset, or ('custom') the permissions ticked one by one. */
export interface GrantChoice {
  role: TeamRole;
  permissions: readonly TeamPermission[];
}

/** The request's body: a role, or the permissions (in the contract's order). */
export function grantOf(choice: GrantChoice): Grant {
  if (choice.role !== 'custom') return { role: choice.role };
  return { permissions: TEAM_PERMISSIONS.filter((permission) => choice.permissions.includes(permission)) };
}

/** A member may hand out only permissions they hold (the server refuses the rest). */
export const holdsAll = (held: ReadonlySet<TeamPermission>, permissions: readonly TeamPermission[]) =>
  permissions.every((permission) => held.has(permission));

export const presetAllowed = (held: ReadonlySet<TeamPermission>, role: PresetRole) =>
  holdsAll(held, ROLE_PERMISSIONS[role]);

/** A new invitation's first choice: the least access, a preset the inviter can give. */
export function firstChoice(held: ReadonlySet<TeamPermission>): GrantChoice {
  const role = PRESET_ROLES.toReversed().find((preset) => presetAllowed(held, preset));
  return role ? { role, permissions: ROLE_PERMISSIONS[role] } : { role: 'custom', permissions: [] };
}

/** Whether the choice can be sent: one permission at least, all of them held. */
export const choiceValid = (held: ReadonlySet<TeamPermission>, choice: GrantChoice) =>
  choice.role === 'custom'
    ? choice.permissions.length > 0 && holdsAll(held, choice.permissions)
    : presetAllowed(held, choice.role);
