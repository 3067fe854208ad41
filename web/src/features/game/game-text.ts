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

/** How to connect a game (spec section 2, Game Connection while disconnected). */
export const CONNECT_STEPS = [
  'Enable HttpService: in Roblox Studio, open Game Settings > Security and turn on Allow HTTP Requests.',
  'Run the connection script: paste the Quick Loader (below) into a Script in ServerScriptService.',
  'Start the game: it connects to Moonrelay automatically.',
] as const;
