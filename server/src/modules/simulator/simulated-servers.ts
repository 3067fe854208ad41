import { isSimulatedServerId } from '@moonrelay/contract/simulator';
import type { BusEvent } from '../../platform/event-bus.ts';

/**
 * What of the game link leaves simulated servers out (docs/decisions/045): they are for seeing the
 * dashboard work, so bans waiting for a game server are never sent to one, and notifications are
 * about real games (a simulated server's connect, disconnect and console errors raise none; a run
 * on it that fails is still a run that failed).
 */
export const realServers = (serverIds: string[]) => serverIds.filter((serverId) => !isSimulatedServerId(serverId));

/** The event as notifications see it: a simulated server's console lines left out. */
export function leaveOutSimulated(event: BusEvent): BusEvent {
  if (event.type !== 'console:lines' || !event.lines.some((line) => isSimulatedServerId(line.serverId))) return event;
  return { ...event, lines: event.lines.filter((line) => !isSimulatedServerId(line.serverId)) };
}
