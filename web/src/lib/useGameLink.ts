import { useEffect, useMemo, useState } from 'react';
import { useGameStatus } from './game-status.ts';
import { gameLinkOf, useServerChoice, type GameLink } from './game-link.ts';
import { useCan, type Can } from './team-access.ts';

export interface GameLinkState extends GameLink {
  /**
   * 'ready' once a status is known; until then neither Connected nor Disconnected would be true.
   * 'refused': the member's role may not see the team's game servers, so none is asked for.
   */
  state: 'loading' | 'failed' | 'ready' | 'refused';
  /** Whether the role allows seeing the game servers (console.read), and why not: what 'refused' shows. */
  watch: Can;
}

/**
 * The game status as the screens read it (see game-link.ts), re-read at the moment a connected game
 * server's last ping passes the connection window, so Disconnected shows without a new status.
 */
export function useGameLink(): GameLinkState {
  const status = useGameStatus();
  const watch = useCan('console.read');
  const chosenServerId = useServerChoice((state) => state.serverId);
  // A new object at every re-read, even when the clock reads the same as last time: the re-read
  // then still renders and re-arms the timer below (a clock that has not moved yet must not stop it).
  const [reading, setReading] = useState(() => ({ now: Date.now() }));
  const { now } = reading;

  // A status that just arrived is judged against the clock now, not against the last re-read.
  const { dataUpdatedAt } = status;
  useEffect(() => setReading({ now: Date.now() }), [dataUpdatedAt]);

  const link = useMemo(() => gameLinkOf(status.data, chosenServerId, now), [status.data, chosenServerId, now]);

  const { staleAt } = link;
  useEffect(() => {
    if (staleAt === null) return;
    // `reading` is a dependency: should the timer fire a hair early, the next render sets a new one.
    const timer = setTimeout(() => setReading({ now: Date.now() }), Math.max(0, staleAt - Date.now()) + 1);
    return () => clearTimeout(timer);
  }, [staleAt, reading]);

  const state = !watch.allowed ? 'refused' : status.data ? 'ready' : status.isError ? 'failed' : 'loading';
  return { ...link, state, watch };
}
