/** The Game and Integration panels' texts, word for word from the spec (sections 2 and 8). */
export const GAME_TEXT = {
  connected: 'Connected',
  disconnected: 'Disconnected',
  receivingCommands: 'Game is connected and receiving commands',
  profileLoading: 'Loading player profile...',
  profileConnect: 'Connect to game to view profile',
} as const;

export const GAME_TOASTS = {
  commandSent: { title: 'Command Sent', description: 'Command queued for game execution' },
  commandFailed: { title: 'Failed', description: 'Could not send command to game' },
  copied: 'Copied!',
  downloaded: 'Downloaded!',
} as const;

/**
 * The game screens' actions, as the notes under their controls name those a team member's role does
 * not allow (each note ends with the permission it needs).
 */
export const GAME_ACTIONS = {
  status: 'See the game servers and their status',
  controls: 'Teleport, heal, speed boost and reset',
  simulator: 'Start and stop the simulated game server',
  console: 'Read the console',
  runInGame: 'Run scripts and code in the game',
  scripts: 'See the scripts',
  integration: 'See the integration scripts, which carry the game key',
} as const;
