import { z } from 'zod';
import { AuditEntrySchema } from './admin.ts';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Teams (docs/decisions/049-teams-as-accounts.md). A team owns what belongs to a game: its keys,
 * scripts, servers, console, runs, schedules, players, moderation, notifications and Open Cloud
 * key. Every account is its own personal team, owned by itself; a person can make more teams and
 * belong to several. A request acts on one team, named by the `Moonrelay-Team` header (the
 * caller's personal team when absent), and needs the permission its endpoint declares.
 */
export const TEAM_PERMISSIONS = [
  'scripts.read',
  'scripts.write',
  'runs.read',
  'runs.sandbox',
  'runs.game',
  'game.control',
  'console.read',
  'players.read',
  'players.note',
  'players.warn',
  'players.kick',
  'players.ban',
  'players.unban',
  'schedules.manage',
  'notifications.manage',
  'keys.manage',
  'opencloud.manage',
  'members.manage',
  'audit.read',
  'team.delete',
] as const;
export const TeamPermissionSchema = z.enum(TEAM_PERMISSIONS, {
  error: `permissions: each must be one of ${TEAM_PERMISSIONS.join(', ')}`,
});
export type TeamPermission = z.infer<typeof TeamPermissionSchema>;
const PERMISSION_NAMES = new Set<string>(TEAM_PERMISSIONS);
export const isTeamPermission = (name: string): name is TeamPermission => PERMISSION_NAMES.has(name);

/** What each permission lets a member do, in the words the Members screen shows. */
export const TEAM_PERMISSION_DESCRIPTIONS: Record<TeamPermission, string> = {
  'scripts.read': 'Read the scripts, their versions and script analytics',
  'scripts.write': 'Create, change, restore and delete scripts',
  'runs.read': 'See the runs and their output',
  'runs.sandbox': 'Run code in the sandbox and as a dry run',
  'runs.game': 'Run code in the live game, and connect game servers with a key',
  'game.control': 'Teleport, heal, change speed, reset; start and stop the simulated server',
  'console.read': 'Read the live console and the game servers',
  'players.read': "See who is playing, every player's record and the bans",
  'players.note': 'Keep notes on players',
  'players.warn': 'Warn players',
  'players.kick': 'Kick players',
  'players.ban': 'Ban players and change bans',
  'players.unban': 'Lift bans',
  'schedules.manage': 'Create, change and delete schedules',
  'notifications.manage': 'Manage notification destinations',
  'keys.manage': "Make and revoke the team's API keys and its game key",
  'opencloud.manage': "Set and remove the team's Open Cloud key",
  'members.manage': 'Invite, remove and change the roles of members',
  'audit.read': "Read the team's activity log",
  'team.delete': 'Delete the team',
};

export const TEAM_ROLES = ['owner', 'admin', 'developer', 'moderator', 'viewer', 'custom'] as const;
export const TeamRoleSchema = z.enum(TEAM_ROLES, { error: `role: one of ${TEAM_ROLES.join(', ')}` });
export type TeamRole = z.infer<typeof TeamRoleSchema>;
/** The roles one can choose; 'custom' is what a member whose permissions were set one by one has. */
export type PresetRole = Exclude<TeamRole, 'custom'>;

const all = TEAM_PERMISSIONS;
/** The presets: a role is a name for a set of permissions (docs/decisions/049). */
export const ROLE_PERMISSIONS: Record<PresetRole, readonly TeamPermission[]> = {
  owner: all,
  admin: all.filter((permission) => permission !== 'team.delete'),
  developer: [
    'scripts.read',
    'scripts.write',
    'runs.read',
    'runs.sandbox',
    'runs.game',
    'game.control',
    'console.read',
    'players.read',
    'schedules.manage',
    'keys.manage',
  ],
  moderator: [
    'console.read',
    'players.read',
    'players.note',
    'players.warn',
    'players.kick',
    'players.ban',
    'players.unban',
  ],
  viewer: ['scripts.read', 'runs.read', 'console.read', 'players.read'],
};

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  moderator: 'Moderator',
  viewer: 'Viewer',
  custom: 'Custom',
};

/** The preset a set of permissions matches exactly, or 'custom'. */
export function roleOf(permissions: readonly TeamPermission[]): TeamRole {
  const held = new Set(permissions);
  for (const role of ['owner', 'admin', 'developer', 'moderator', 'viewer'] as const) {
    const preset = ROLE_PERMISSIONS[role];
    if (preset.length === held.size && preset.every((permission) => held.has(permission))) return role;
  }
  return 'custom';
}

/** The header that names the team a request acts on. */
export const TEAM_HEADER = 'Moonrelay-Team';

export const TEAM_NAME_MAX_LENGTH = 60;
/** How long an invitation link works. */
export const INVITATION_LIFETIME_HOURS = 72;
/** Teams a person may create (their personal team not counted). */
export const TEAMS_PER_PERSON = 20;
/** Members of one team, invitations not yet used included. */
export const MEMBERS_PER_TEAM = 200;

export const TEAM_ERRORS = {
  nameRequired: 'name: a team needs a name',
  nameTooLong: `name: at most ${TEAM_NAME_MAX_LENGTH} characters`,
  notFound: 'Team not found, or you are not one of its members',
  headerInvalid: `${TEAM_HEADER}: not a team you belong to; leave the header out to act on your own account`,
  /** Followed by the permission the call needs. */
  permissionMissingPrefix: 'Your role in this team does not allow this: it needs the permission ',
  cannotGrant: 'You can only give permissions you hold yourself',
  lastOwner: 'A team keeps at least one owner: make another member owner first',
  /** Followed by the team's name and the way out. */
  lastOwnerOfPrefix: 'You are the last owner of the team ',
  personalTeam: 'Your personal team has only you: create a team to invite others',
  memberNotFound: 'Member not found in this team',
  invitationInvalid: 'This invitation link is not valid: ask for a new one',
  invitationExpired: 'This invitation link has expired: ask for a new one',
  invitationUsed: 'This invitation link was already used: ask for a new one',
  alreadyMember: 'You are already a member of this team',
  tooManyTeams: `You already made ${TEAMS_PER_PERSON} teams, the most allowed: delete one first`,
  tooManyMembers: `A team has at most ${MEMBERS_PER_TEAM} members and open invitations`,
  permissionsOrRole: 'Send a role or a list of permissions, not both',
  keyCreatorGone: 'This API key was made by someone who is no longer a member of its team',
} as const;

export const TeamNameSchema = z
  .string({ error: TEAM_ERRORS.nameRequired })
  .trim()
  .min(1, TEAM_ERRORS.nameRequired)
  .max(TEAM_NAME_MAX_LENGTH, TEAM_ERRORS.nameTooLong);

export const TeamSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The caller's own account: one member, themself. */
    personal: z.boolean(),
    role: TeamRoleSchema,
    permissions: z.array(TeamPermissionSchema),
    members: z.number().int(),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'TeamSummary' });
export type TeamSummary = z.infer<typeof TeamSummarySchema>;
export const TeamListSchema = z.array(TeamSummarySchema).meta({ id: 'TeamList' });

export const TeamMemberSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    username: z.string(),
    role: TeamRoleSchema,
    permissions: z.array(TeamPermissionSchema),
    joinedAt: IsoDateTimeSchema,
  })
  .meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMemberSchema>;

export const TeamInvitationSchema = z
  .object({
    id: z.string(),
    role: TeamRoleSchema,
    permissions: z.array(TeamPermissionSchema),
    createdBy: z.string(),
    createdAt: IsoDateTimeSchema,
    expiresAt: IsoDateTimeSchema,
  })
  .meta({ id: 'TeamInvitation' });
export type TeamInvitation = z.infer<typeof TeamInvitationSchema>;

export const TeamDetailsSchema = TeamSummarySchema.extend({
  memberList: z.array(TeamMemberSchema),
  invitations: z.array(TeamInvitationSchema),
}).meta({ id: 'TeamDetails' });
export type TeamDetails = z.infer<typeof TeamDetailsSchema>;

export const CreateTeamRequestSchema = z.object({ name: TeamNameSchema }).meta({ id: 'CreateTeamRequest' });
export type CreateTeamRequest = z.infer<typeof CreateTeamRequestSchema>;

/** A role, or permissions one by one (the member's role then reads 'custom' unless they match a preset). */
export const GrantSchema = z
  .object({
    role: TeamRoleSchema.exclude(['custom']).optional(),
    permissions: z.array(TeamPermissionSchema).max(TEAM_PERMISSIONS.length).optional(),
  })
  .refine((grant) => (grant.role === undefined) !== (grant.permissions === undefined), {
    message: TEAM_ERRORS.permissionsOrRole,
  });
export type Grant = z.infer<typeof GrantSchema>;

export const CreateInvitationRequestSchema = GrantSchema.meta({ id: 'CreateInvitationRequest' });
export const UpdateMemberRequestSchema = GrantSchema.meta({ id: 'UpdateMemberRequest' });

export const CreatedInvitationSchema = TeamInvitationSchema.extend({
  /** Shown once: the link carries the only copy of the invitation's secret. */
  token: z.string(),
}).meta({ id: 'CreatedInvitation' });
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

/** What an invitation link offers, shown before joining: the team, the role, until when. */
export const InvitationPreviewSchema = z
  .object({
    teamName: z.string(),
    role: TeamRoleSchema,
    permissions: z.array(TeamPermissionSchema),
    invitedBy: z.string().nullable(),
    expiresAt: IsoDateTimeSchema,
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;
export const InvitationTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

export const AcceptInvitationRequestSchema = z
  .object({ token: z.string().min(1, TEAM_ERRORS.invitationInvalid).max(200, TEAM_ERRORS.invitationInvalid) })
  .meta({ id: 'AcceptInvitationRequest' });

/** The team's activity log: its audit entries, newest first, paged by cursor, filtered on the server. */
export const TEAM_ACTIVITY_PAGE_MAX = 200;
export const TEAM_ACTIVITY_INVALID_CURSOR = 'cursor: not a cursor this list answered';
export const TeamActivityQuerySchema = z.object({
  cursor: z.string().min(1).max(300).optional(),
  /** An action (`moderation.ban`) or a family of them (`moderation.`). */
  action: z.string().min(1).max(60).optional(),
  /** Entries of one person. */
  actorId: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(TEAM_ACTIVITY_PAGE_MAX).default(50),
});
export type TeamActivityQuery = z.infer<typeof TeamActivityQuerySchema>;
export const TeamActivityPageSchema = z
  .object({
    items: z.array(AuditEntrySchema),
    /** Pass as `cursor` for the next (older) page; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'TeamActivityPage' });
export type TeamActivityPage = z.infer<typeof TeamActivityPageSchema>;

/** A team as the admin panel's Teams tab lists it: its members and what they are (paged like its Users). */
export const AdminTeamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scriptCount: z.number().int(),
    createdAt: IsoDateTimeSchema,
    members: z.array(
      z.object({
        userId: z.string(),
        username: z.string(),
        role: TeamRoleSchema,
        permissions: z.array(TeamPermissionSchema),
      }),
    ),
  })
  .meta({ id: 'AdminTeam' });
export type AdminTeam = z.infer<typeof AdminTeamSchema>;
export const AdminTeamPageSchema = z
  .object({
    items: z.array(AdminTeamSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .meta({ id: 'AdminTeamPage' });
export type AdminTeamPage = z.infer<typeof AdminTeamPageSchema>;

export const TeamParamsSchema = z.object({ teamId: z.string().min(1) });
export const TeamMemberParamsSchema = z.object({ teamId: z.string().min(1), userId: z.string().min(1) });
export const TeamInvitationParamsSchema = z.object({ teamId: z.string().min(1), invitationId: z.string().min(1) });
