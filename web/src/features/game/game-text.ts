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
