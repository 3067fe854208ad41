import { DEFAULT_HEALTH } from '@moonrelay/contract/constants';
import type { PlayerData } from '@moonrelay/contract/game';

/** How the dashboard shows a game's player data (spec section 2, Game Connection). */

export function formatPosition(position: PlayerData['position']): string {
  if (!position) return 'Unknown';
  return `${Math.round(position.x)}, ${Math.round(position.y)}, ${Math.round(position.z)}`;
}

/** "75 / 100": health over max health, each 100 when the game did not say (spec section 9). */
export function formatHealth(data: PlayerData): string {
  return `${Math.round(data.health ?? DEFAULT_HEALTH)} / ${Math.round(data.maxHealth ?? DEFAULT_HEALTH)}`;
}

export const formatId = (id: string | number | undefined) => (id === undefined ? 'Unknown' : String(id));
