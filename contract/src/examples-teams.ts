import type { EndpointName } from './endpoints.ts';
import type { EndpointExample } from './examples.ts';
import { ERRORS } from './messages.ts';
import { SHARE_ERRORS } from './shares.ts';
import { ROLE_PERMISSIONS, TEAM_ACTIVITY_INVALID_CURSOR, TEAM_ERRORS, TEAM_HEADER, TEAM_PERMISSIONS } from './teams.ts';

/**
 * The examples of the API docs page's Teams tab (teams, members, invitations, the activity log, and
 * sharing scripts by link), part of EXAMPLES (examples.ts). The owner is the examples' account
 * (Builder); their team is Obby Studios, where Mia joined as a Moderator by an invitation link.
 *
 * Placeholders, besides examples.ts's: the examples test puts real values in their place (a team it
 * makes, its member, an open invitation and a share).
 */
export const TEAM_ID_PLACEHOLDER = 'TEAM_ID';
export const MEMBER_ID_PLACEHOLDER = 'MEMBER_ID';
export const INVITATION_ID_PLACEHOLDER = 'INVITATION_ID';
export const INVITATION_TOKEN_PLACEHOLDER = 'INVITATION_TOKEN';
export const SHARE_ID_PLACEHOLDER = 'SHARE_ID';
export const SHARE_TOKEN_PLACEHOLDER = 'SHARE_TOKEN';
/** The caller's own user id (GET /api/user answers it): leaving a team names oneself. */
export const USER_ID_PLACEHOLDER = 'YOUR_USER_ID';

/** What the team examples take from examples.ts (passed in: examples.ts imports this file). */
export interface TeamExampleBase {
  owner: { id: string; name: string; username: string; createdAt: string };
  /** The examples' script, as the Scripts tab documents it. */
  script: Record<string, unknown> & { id: string; name: string; description: string | null; code: string };
  /** examples.ts's SCRIPT_ID placeholder. */
  scriptIdPlaceholder: string;
}

const TEAM_ID = 'a3c9e1f4-6b2d-4e8a-9f10-5d7c2b8e4a61';
const MEMBER_ID = '4f8b2c1d-9e3a-4b6c-8d7e-1a2b3c4d5e6f';
const INVITATION_ID = 'e91d3b7a-2c4f-4a86-b5d0-7f3e9c1a2b84';
const SHARE_ID = '6c2f8a1e-3d9b-4c57-a0e4-8b1f7d2c9e35';
const TEAM_CREATED_AT = '2026-11-29T10:15:00.000Z';
const INVITED_AT = '2026-11-29T10:18:40.000Z';
const JOINED_AT = '2026-11-29T10:20:12.000Z';
const SHARED_AT = '2026-11-29T11:02:00.000Z';

const everything = [...TEAM_PERMISSIONS];
const moderator = [...ROLE_PERMISSIONS.moderator];

const obbyStudios = {
  id: TEAM_ID,
  name: 'Obby Studios',
  personal: false,
  role: 'owner',
  permissions: everything,
  members: 2,
  createdAt: TEAM_CREATED_AT,
};

const mia = {
  userId: MEMBER_ID,
  name: 'Mia',
  username: 'mia_mod',
  role: 'moderator',
  permissions: moderator,
  joinedAt: JOINED_AT,
};

/** An invitation not yet used: a Moderator's, for 72 hours. */
const moderatorInvitation = (createdBy: string) => ({
  id: INVITATION_ID,
  role: 'moderator',
  permissions: moderator,
  createdBy,
  createdAt: INVITED_AT,
  expiresAt: '2026-12-02T10:18:40.000Z',
});

const teamNotFound = { status: 404, body: { error: TEAM_ERRORS.notFound } };

/** Said on the examples that act on a team's data named by the header, not the path. */
const ACTS_ON_HEADER_TEAM = `The example acts on your own account; add the header ${TEAM_HEADER}: ${TEAM_ID_PLACEHOLDER} to act on a team of yours.`;

export function teamExamples(base: TeamExampleBase): Partial<Record<EndpointName, EndpointExample>> {
  const { owner, script, scriptIdPlaceholder } = base;
  const share = {
    id: SHARE_ID,
    scriptId: script.id,
    scriptName: script.name,
    createdAt: SHARED_AT,
    createdBy: owner.username,
  };
  const builder = {
    userId: owner.id,
    name: owner.name,
    username: owner.username,
    role: 'owner',
    permissions: everything,
    joinedAt: TEAM_CREATED_AT,
  };
  return {
    createScriptShare: {
      params: { id: scriptIdPlaceholder },
      response: { ...share, token: 'pV7nK2xQ9mB4tR1wZ8cL3yH6jD0sF5gA' },
      error: { status: 409, body: { error: SHARE_ERRORS.tooMany } },
      note: `The token is shown this once: the link to send is https://<your Moonrelay>/shared/<token>. ${ACTS_ON_HEADER_TEAM}`,
    },
    listScriptShares: {
      response: { items: [share] },
      error: { status: 403, body: { error: TEAM_ERRORS.headerInvalid } },
      note: ACTS_ON_HEADER_TEAM,
    },
    deleteScriptShare: {
      params: { shareId: SHARE_ID_PLACEHOLDER },
      response: { success: true },
      error: { status: 404, body: { error: SHARE_ERRORS.shareNotFound } },
      note: `SHARE_ID is the id a share call answered, or one GET /api/shares lists. ${ACTS_ON_HEADER_TEAM}`,
    },
    getSharedScript: {
      params: { token: SHARE_TOKEN_PLACEHOLDER },
      response: {
        name: script.name,
        description: script.description,
        code: script.code,
        version: 1,
        updatedAt: '2026-11-22T00:26:49.580Z',
        sharedAt: SHARED_AT,
      },
      error: { status: 404, body: { error: SHARE_ERRORS.notFound } },
      note: 'SHARE_TOKEN is the last part of the link (https://<your Moonrelay>/shared/<token>).',
    },
    copySharedScript: {
      params: { token: SHARE_TOKEN_PLACEHOLDER },
      response: {
        ...script,
        id: '9d4e7a2b-1c8f-4e3a-b6d5-2f0c9e8a7b14',
        createdAt: '2026-11-29T11:05:31.000Z',
        updatedAt: '2026-11-29T11:05:31.000Z',
      },
      error: { status: 404, body: { error: SHARE_ERRORS.notFound } },
      note: `The copy is a new script with its own history. ${ACTS_ON_HEADER_TEAM}`,
    },
    copyScript: {
      params: { id: scriptIdPlaceholder },
      body: { teamId: TEAM_ID_PLACEHOLDER },
      response: {
        ...script,
        id: '3b8f1d6c-7a2e-4c95-8e0b-4d6a2f1c9e73',
        userId: TEAM_ID,
        createdAt: '2026-11-29T11:07:02.000Z',
        updatedAt: '2026-11-29T11:07:02.000Z',
      },
      error: { status: 403, body: { error: SHARE_ERRORS.targetTeam } },
      note: `Copies one of your own scripts into Obby Studios; with the header ${TEAM_HEADER}, one of that team's scripts instead. The body's teamId is where the copy goes.`,
    },
    listTeams: {
      response: [
        {
          id: owner.id,
          name: owner.name,
          personal: true,
          role: 'owner',
          permissions: everything,
          members: 1,
          createdAt: owner.createdAt,
        },
        obbyStudios,
      ],
      error: { status: 403, body: { error: ERRORS.sessionRequired } },
      note: `Send a team's id as the header ${TEAM_HEADER} to act on that team: its scripts, servers, players and keys.`,
    },
    createTeam: {
      body: { name: 'Obby Studios' },
      response: { ...obbyStudios, members: 1 },
      error: { status: 409, body: { error: TEAM_ERRORS.tooManyTeams } },
    },
    getTeam: {
      params: { teamId: TEAM_ID_PLACEHOLDER },
      response: {
        ...obbyStudios,
        memberList: [builder, mia],
        invitations: [moderatorInvitation(owner.id)],
      },
      error: teamNotFound,
      note: 'TEAM_ID is the id of a team you belong to (GET /api/teams lists them).',
    },
    deleteTeam: {
      params: { teamId: TEAM_ID_PLACEHOLDER },
      response: { success: true },
      error: { status: 403, body: { error: `${TEAM_ERRORS.permissionMissingPrefix}team.delete` } },
      note: "This cannot be undone: the team's scripts, keys, servers, runs, players and moderation history go with it. Needs the permission team.delete (owners hold it) and a proof from the last 10 minutes (POST /api/auth/sudo); without the proof the answer is 403 with code sudo_required.",
    },
    createInvitation: {
      params: { teamId: TEAM_ID_PLACEHOLDER },
      body: { role: 'moderator' },
      response: { ...moderatorInvitation(owner.id), token: 'Xk4pQ9vL2mT7wRz1bN6cY3hJ8sD0fG5a' },
      error: { status: 403, body: { error: TEAM_ERRORS.cannotGrant } },
      note: 'The token is shown this once: the link to send is https://<your Moonrelay>/join?token=<token>. Or permissions one by one: { "permissions": ["players.read", "players.kick"] }.',
    },
    revokeInvitation: {
      params: { teamId: TEAM_ID_PLACEHOLDER, invitationId: INVITATION_ID_PLACEHOLDER },
      response: { success: true },
      error: { status: 404, body: { error: TEAM_ERRORS.invitationInvalid } },
      note: 'INVITATION_ID is the id a create call answered, or one of the invitations GET /api/teams/TEAM_ID lists.',
    },
    previewInvitation: {
      params: { token: INVITATION_TOKEN_PLACEHOLDER },
      response: {
        teamName: 'Obby Studios',
        role: 'moderator',
        permissions: moderator,
        invitedBy: owner.username,
        expiresAt: '2026-12-02T10:18:40.000Z',
      },
      error: { status: 410, body: { error: TEAM_ERRORS.invitationExpired } },
      note: 'INVITATION_TOKEN is the token at the end of the invitation link (/join?token=<token>).',
    },
    acceptInvitation: {
      body: { token: INVITATION_TOKEN_PLACEHOLDER },
      response: { ...obbyStudios, role: 'moderator', permissions: moderator, members: 3 },
      error: { status: 410, body: { error: TEAM_ERRORS.invitationUsed } },
      note: 'Sent with the session of the person joining, not the one who invited them. INVITATION_TOKEN is the token at the end of the invitation link.',
    },
    updateMember: {
      params: { teamId: TEAM_ID_PLACEHOLDER, userId: MEMBER_ID_PLACEHOLDER },
      body: { role: 'admin' },
      response: { ...mia, role: 'admin', permissions: [...ROLE_PERMISSIONS.admin] },
      error: { status: 409, body: { error: TEAM_ERRORS.lastOwner } },
      note: 'MEMBER_ID is the userId of a member (GET /api/teams/TEAM_ID lists them). Or permissions one by one: { "permissions": ["players.read", "players.kick"] }; the role then reads "custom".',
    },
    teamActivity: {
      params: { teamId: TEAM_ID_PLACEHOLDER },
      query: { action: 'team.', limit: '20' },
      response: {
        items: [
          {
            id: '1f7c3a9e-5b2d-4e81-9c6a-0d8e2f4b7a13',
            actorId: MEMBER_ID,
            actorName: 'mia_mod',
            action: 'team.member_joined',
            targetType: 'team',
            targetId: TEAM_ID,
            details: { invitationId: INVITATION_ID, role: 'moderator', permissions: moderator },
            createdAt: JOINED_AT,
          },
          {
            id: '0a6b2e8d-4c1f-4d73-8b5e-9f2a1c7d3e60',
            actorId: owner.id,
            actorName: owner.username,
            action: 'team.invitation_created',
            targetType: 'team',
            targetId: TEAM_ID,
            details: { invitationId: INVITATION_ID, role: 'moderator', permissions: moderator },
            createdAt: INVITED_AT,
          },
        ],
        nextCursor: null,
      },
      error: { status: 400, body: { error: TEAM_ACTIVITY_INVALID_CURSOR } },
      note: 'An action ending with a dot is a family (`team.`, `moderation.`); actorId keeps one person’s entries. When nextCursor is not null, pass it as cursor for the next, older page.',
    },
    removeMember: {
      title: 'Remove a member',
      params: { teamId: TEAM_ID_PLACEHOLDER, userId: MEMBER_ID_PLACEHOLDER },
      response: { success: true },
      error: { status: 404, body: { error: TEAM_ERRORS.memberNotFound } },
      note: 'Needs members.manage. Their keys for the team stop working at once.',
      variants: [
        {
          title: 'Leave a team',
          params: { teamId: TEAM_ID_PLACEHOLDER, userId: USER_ID_PLACEHOLDER },
          response: { success: true },
          error: { status: 409, body: { error: TEAM_ERRORS.lastOwner } },
          note: 'YOUR_USER_ID is your own id (GET /api/user answers it), sent with your own session. The last owner cannot leave: make another member owner first.',
        },
      ],
    },
  };
}
