import type { PlayerData } from './game.ts';
import { isSimulatedServerId } from './simulated.ts';

/**
 * Telling Studio sessions from live games. Apart from contract/game.ts (which re-exports it), since
 * that module's schemas bring zod, and the web app's signed-in shell needs only these checks.
 */

/** The server id the integration script sends from Studio, whose JobId is empty. */
export const STUDIO_SERVER_ID = 'studio';

/** A Studio test player (negative user id), who has no Roblox profile. */
export const isStudioTestPlayer = (userId: PlayerData['userId']) => typeof userId === 'number' && userId < 0;

/**
 * Whether a game server is a Studio session rather than a live game: Studio's Play (the empty
 * JobId, sent as "studio") or its Test > Start local server (test players, negative user ids). A
 * simulated server's player has a negative id too, but it is marked Simulated, not Studio.
 */
export const isStudioServer = (server: { serverId: string; gameData: PlayerData | null }) =>
  !isSimulatedServerId(server.serverId) &&
  (server.serverId === STUDIO_SERVER_ID || isStudioTestPlayer(server.gameData?.userId));
