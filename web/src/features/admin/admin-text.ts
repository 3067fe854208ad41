/** The Admin Panel's texts. Those the spec gives (sections 2, 5 and 8) are word for word. */
export const ADMIN_TEXT = {
  title: 'Admin Panel',
  badge: 'Admin Access',
  subtitle: 'Manage users and their API keys, send commands and scripts to their games, and review what admins did.',
  /** Where a person's email would be, for a team's game server (Connections). */
  teamAccount: 'Team',
  tabs: {
    users: 'Users',
    teams: 'Teams',
    connections: 'Connections',
    mass: 'Mass Execution',
    executions: 'Recent Executions',
    audit: 'Audit Logs',
  },
  noConnections: 'No active connections',
  noExecutions: 'No recent executions found',
  noAudit: 'No audit logs available',
  noUsers: 'No users yet',
  noTeams: 'No teams yet',
  membersOf: (team: string) => `Members of ${team}`,
  memberCount: (count: number) => (count === 1 ? '1 member' : `${count.toLocaleString('en')} members`),
  noMembers: 'No members',
  moreMembers: (count: number) => `Show ${count.toLocaleString('en')} more`,
  moreMembersLabel: (count: number, team: string) => `Show ${count.toLocaleString('en')} more members of ${team}`,
  fewerMembers: 'Show fewer',
  fewerMembersLabel: (team: string) => `Show fewer members of ${team}`,
  unknownGame: 'Unknown',
  adminsOnlyTitle: 'Admins only',
  adminsOnly: 'The Admin Panel is for administrators. Your account does not have admin access.',
} as const;

export const ADMIN_TOASTS = {
  keyRegenerated: (name: string, key: string) => ({
    title: 'API Key Regenerated',
    description: `New API key for ${name}: ${key}`,
  }),
  keyFailed: { title: 'Failed', description: 'Could not regenerate API key.' },
  commandSent: { title: 'Command Sent', description: 'Command queued for execution' },
  commandFailed: { title: 'Failed', description: 'Could not send command.' },
  scriptSent: { title: 'Script Sent', description: 'Script queued for execution' },
  scriptFailed: { title: 'Failed', description: 'Could not execute script.' },
  noUsersSelected: { title: 'No Users Selected', description: 'Please select at least one user for mass execution.' },
  noScript: { title: 'No Script Provided', description: 'Please enter a script to execute.' },
  roleChanged: (name: string, isAdmin: boolean) => ({
    title: 'Role Updated',
    description: isAdmin ? `${name} is now an admin.` : `${name} is no longer an admin.`,
  }),
  roleFailed: { title: 'Failed', description: 'Could not change the role.' },
} as const;
