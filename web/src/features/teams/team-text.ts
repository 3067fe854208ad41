import { INVITATION_LIFETIME_HOURS, ROLE_LABELS, type TeamSummary } from '@moonrelay/contract/teams';

/** The words of the team screens, in one place so the tests read the same ones. */
export const TEAM_TEXT = {
  switcherLabel: 'Switch team',
  teamsGroup: 'Teams',
  personalTag: 'Personal',
  createTeam: 'Create team',
  createTitle: 'Create a team',
  createDescription:
    'A team has its own scripts, game key, servers, players and runs. You are its owner; invite others with a link.',
  nameLabel: 'Team name',
  create: 'Create',
  creating: 'Creating...',
  created: 'Team created',
  createFailed: 'Could not create the team.',
  loadTeamsFailed: 'Your teams could not be loaded.',

  title: 'Team',
  personalTitle: 'Your own account',
  personalExplanation:
    'This is your personal team: its scripts, keys, game servers and players are yours alone, and nobody else can join it. To work with others, create a team and invite them with a link; switch between your account and your teams from the menu above the navigation.',
  loadFailed: 'The team could not be loaded.',
  members: 'Members',
  membersLabel: 'Team members',
  you: 'You',
  joined: (date: string) => `Joined ${date}`,
  changeAccess: 'Change role',
  changeAccessLabel: (name: string) => `Change the role of ${name}`,
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name} from the team`,
  removeTitle: (name: string) => `Remove ${name}?`,
  removeBody: 'They lose access to the team at once, and the API keys they made for it stop working.',
  removing: 'Removing...',
  removed: (name: string) => `${name} was removed from the team`,
  removeFailed: 'Could not remove the member.',
  accessTitle: (name: string) => `Role of ${name}`,
  save: 'Save',
  saving: 'Saving...',
  accessSaved: (name: string) => `The role of ${name} was changed`,
  accessFailed: 'Could not change the role.',

  invitations: 'Open invitations',
  invitationsLabel: 'Open invitations',
  invitationsEmpty: 'No invitation link is waiting to be used.',
  invitationsHidden: 'Members with the permission members.manage see the open invitations here.',
  expires: (date: string) => `Expires ${date}`,
  revoke: 'Revoke',
  revokeLabel: (role: string, expires: string) => `Revoke the ${role} invitation that expires ${expires}`,
  revoked: 'Invitation revoked: its link no longer works',
  revokeFailed: 'Could not revoke the invitation.',

  invite: 'Invite',
  inviteTitle: 'Invite to the team',
  inviteDescription: `The link works once, for ${INVITATION_LIFETIME_HOURS} hours: whoever opens it signed in joins the team with this role.`,
  makeLink: 'Make invitation link',
  makingLink: 'Making link...',
  inviteFailed: 'Could not make the invitation link.',
  linkTitle: 'Invitation link',
  linkShownOnce:
    'Copy the link now and send it to the person you invite: it is shown this once and cannot be shown again.',
  linkGives: (role: string, expires: string) =>
    `Whoever opens it signed in joins as ${role}. It works once, until ${expires}.`,
  linkLabel: 'Invitation link',
  copyLink: 'Copy invitation link',
  linkCopied: 'Invitation Link Copied',
  done: 'Done',
  cancel: 'Cancel',

  roleLabel: 'Role',
  oneByOne: 'Choose permissions one by one',
  permissionsLegend: 'Permissions',
  includes: 'Includes',
  notHeld: 'You do not hold this permission, so you cannot give it',
  roleNotHeld: 'Includes permissions you do not hold',
  nonePicked: 'Choose at least one permission.',

  exitsLeave: 'Leave the team',
  exitsLeaveOrDelete: 'Leave or delete the team',
  leaveDetail: 'You lose access to its scripts, servers and players at once; to come back you need a new invitation.',
  deleteDetail:
    'Deletes its scripts, keys, game servers, runs, schedules, players and moderation history, for every member.',
  leave: 'Leave team',
  leaveTitle: (name: string) => `Leave ${name}?`,
  leaveBody: 'You lose access to its scripts, servers and players at once. To come back, you need a new invitation.',
  leaving: 'Leaving...',
  left: (name: string) => `You left ${name}`,
  leaveFailed: 'Could not leave the team.',
  lastOwner: 'You are its only owner: make another member owner before you leave, or delete the team.',

  deleteTeam: 'Delete team',
  deleteTitle: (name: string) => `Delete ${name}?`,
  deleteBody:
    'Its scripts, keys, game servers, runs, schedules, players and moderation history are deleted with it, for every member. This cannot be undone.',
  deleting: 'Deleting...',
  deleted: (name: string) => `${name} was deleted`,
  deleteFailed: 'Could not delete the team.',

  joinTitle: 'Join team',
  joinDescription: 'You were invited to a team. Join it to work on its scripts, servers and players with its members.',
  join: 'Join team',
  joining: 'Joining...',
  joinedTeam: (name: string) => `You joined ${name}`,
  joinFailed: 'Could not join the team.',
} as const;

/** "Owner", "Custom"…; on the person's own account, "Personal". */
export const roleText = (team: Pick<TeamSummary, 'personal' | 'role'>) =>
  team.personal ? TEAM_TEXT.personalTag : ROLE_LABELS[team.role];
