import { DEFAULT_HEALTH } from '@moonrelay/contract/constants';
import type { PlayerData } from '@moonrelay/contract/game';
import type { AdminConnection } from '@moonrelay/contract/admin';
import { ADMIN_TEXT } from '../../admin-text.ts';

/** How a connection card shows its player (spec section 2, Connections). */

export function positionText(position: PlayerData['position']): string {
  if (!position) return 'Unknown';
  return `${Math.round(position.x)}, ${Math.round(position.y)}, ${Math.round(position.z)}`;
}

/** "75 / 100": health over max health, each 100 when the game did not say (spec section 9). */
export function healthText(data: PlayerData | null): string {
  return `${Math.round(data?.health ?? DEFAULT_HEALTH)} / ${Math.round(data?.maxHealth ?? DEFAULT_HEALTH)}`;
}

export const gameIdText = (data: PlayerData | null) =>
  data?.gameId === undefined ? ADMIN_TEXT.unknownGame : String(data.gameId);

/** The line under the account's name: the person's email, or that it is a team (which has none). */
export const accountLine = (connection: Pick<AdminConnection, 'userEmail' | 'isTeam'>): string =>
  connection.isTeam ? ADMIN_TEXT.teamAccount : (connection.userEmail ?? '');
