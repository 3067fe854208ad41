/**
 * The simulated game server (docs/decisions/045-simulated-game-server.md): what marks it and its
 * player, its numbers and its texts. Apart from simulator.ts (which re-exports it) as that module's
 * schema brings zod, and the screens that mark simulated servers need only these checks (as
 * studio.ts is for Studio).
 */

/** A simulated game server's id starts with this; the rest is short and the same for one account. */
export const SIMULATED_SERVER_ID_PREFIX = 'simulated-';

/**
 * Whether a game server is a simulated one, by its id. The mark is the id alone: a real game that
 * sent such an id itself would be shown as simulated too, to its owner only.
 */
export const isSimulatedServerId = (serverId: string | null | undefined): boolean =>
  typeof serverId === 'string' && serverId.startsWith(SIMULATED_SERVER_ID_PREFIX);

/**
 * The one player on a simulated server. Negative like Studio's test players (no Roblox profile is
 * fetched for it), far from their -1, -2, ... so its record never merges with Player1's.
 */
export const SIMULATED_PLAYER = {
  userId: -1000,
  name: 'SimulatedPlayer',
  displayName: 'Simulated Player',
} as const;

export const isSimulatedPlayer = (userId: string | number | null | undefined): boolean =>
  userId !== null && userId !== undefined && Number(userId) === SIMULATED_PLAYER.userId;

/** How long a simulated server runs before it stops by itself. */
export const SIMULATOR_MINUTES = 5;
/** Simulated servers one Moonrelay instance runs at once, for all its users together. */
export const SIMULATORS_PER_INSTANCE = 20;

export const SIMULATOR_ERRORS = {
  full: `Too many simulated game servers are running on this Moonrelay instance (at most ${SIMULATORS_PER_INSTANCE}); each stops within ${SIMULATOR_MINUTES} minutes, try again then`,
  unavailable: 'Moonrelay cannot reach its own game route to simulate a game server here',
  /** The first ping was refused by the game route: the route's own reason follows. */
  refused: 'The simulated game server could not connect',
} as const;

/** The dashboard's texts for it. */
export const SIMULATOR_TEXT = {
  badge: 'Simulated',
  badgeHint: 'A simulated game server started from the dashboard, not a Roblox server',
  start: 'Simulate a game server',
  stop: 'Stop',
  invite: `No Roblox game connected yet? Try Moonrelay with a simulated game server for ${SIMULATOR_MINUTES} minutes.`,
  noProfile: 'A simulated player has no Roblox profile.',
} as const;
