import { TEAM_PERMISSIONS, TEAM_ERRORS, type TeamPermission } from '@moonrelay/contract/teams';

/**
 * What a caller holds on the team a request acts on: 'all' on their own account (their personal
 * team), else the permissions their membership (or the member who made their key) has now.
 */
export type HeldPermissions = 'all' | ReadonlySet<TeamPermission>;

/** The one decision (docs/decisions/049): HTTP routes, socket rooms and jobs all ask it. */
export const holds = (held: HeldPermissions, permission: TeamPermission): boolean =>
  held === 'all' || held.has(permission);

/** The refusal's text: which permission the call needs. */
export const missingPermission = (permission: TeamPermission): string =>
  `${TEAM_ERRORS.permissionMissingPrefix}${permission}`;

export const listOf = (held: HeldPermissions): TeamPermission[] =>
  held === 'all' ? [...TEAM_PERMISSIONS] : TEAM_PERMISSIONS.filter((permission) => held.has(permission));

/**
 * Stored form: a JSON array in the contract's order, so two equal sets are equal texts (the owners
 * of a team are found by comparing with ALL_PERMISSIONS_TEXT in SQL).
 */
export const encodePermissions = (permissions: Iterable<TeamPermission>): string => {
  const set = new Set(permissions);
  return JSON.stringify(TEAM_PERMISSIONS.filter((permission) => set.has(permission)));
};

export const ALL_PERMISSIONS_TEXT = encodePermissions(TEAM_PERMISSIONS);

/** Reads the stored form; a name no longer in the contract is dropped, not granted. */
export function decodePermissions(text: string): ReadonlySet<TeamPermission> {
  const known = new Set<string>(TEAM_PERMISSIONS);
  const parsed: unknown = JSON.parse(text);
  return new Set(
    (Array.isArray(parsed) ? parsed : []).filter((name): name is TeamPermission => known.has(String(name))),
  );
}
