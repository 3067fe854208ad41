import { useMemo } from 'react';
import type { ScriptRef } from '../../../components/console/script-line.ts';
import type { ConsoleFilter } from '../../../components/console/console-feed.ts';
import type { ConsoleSource } from '../../../components/console/console-source.ts';
import { ConsoleView } from '../../../components/console/ConsoleView.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { useGameStatus } from '../../../lib/game-status.ts';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { useCan } from '../../../lib/team-access.ts';
import { CONSOLE_POLL_MS, fetchGameConsole, GAME_CONSOLE_PATH, useConsoleErrorCounts } from '../api/console.ts';
import { useConsoleSubscription } from '../live/console-subscription.ts';
import { GAME_ACTIONS } from '../game-text.ts';
import { consoleServerOptions } from './console-servers.ts';

interface Props {
  /** The user's saved scripts: an error in one of them opens the editor at its line. */
  scripts?: readonly ScriptRef[];
  initialFilter?: Partial<ConsoleFilter>;
  height: string | Record<string, string>;
}

const NO_SCRIPTS: readonly ScriptRef[] = [];

/**
 * The signed-in user's game console: lines pushed over the live socket as the games log them
 * (polled while the socket is down), the server picker from the game status. Where the member's
 * role may not read the console (console.read), no line is asked for: a note says why instead.
 */
export function ConsolePanel({ scripts = NO_SCRIPTS, initialFilter, height }: Props) {
  const read = useCan('console.read');
  const status = useGameStatus();
  const counts = useConsoleErrorCounts();
  const live = useLiveSocketState((state) => state.connected);
  const subscribe = useConsoleSubscription();
  const source = useMemo<ConsoleSource>(
    () => ({ queryKey: [GAME_CONSOLE_PATH], fetchPage: fetchGameConsole, subscribe, live, pollMs: CONSOLE_POLL_MS }),
    [subscribe, live],
  );
  const servers = useMemo(
    () => consoleServerOptions(status.data?.servers, counts.data),
    [status.data?.servers, counts.data],
  );
  const links = useMemo(() => ({ scripts, runs: true }), [scripts]);
  if (!read.allowed) return <PermissionNotes notes={[{ action: GAME_ACTIONS.console, can: read }]} />;
  return <ConsoleView source={source} servers={servers} initialFilter={initialFilter} links={links} height={height} />;
}
