import { useEffect } from 'react';
import type { ConsoleLinesEvent } from '@moonrelay/contract/console';
import type { CommandUpdateEvent, ExecutionResultEvent, GameServersEvent } from '@moonrelay/contract/events';
import type { GameStatus } from '@moonrelay/contract/game';
import { gameStatusQuery } from '../../../lib/game-status.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';
import { actingAccountId } from '../../../lib/team.ts';
import { consoleErrorCountsQuery, countNewErrors } from '../api/console.ts';
import { refreshScriptList } from '../api/game.ts';
import { applyServersChange } from './game-servers-change.ts';
import { isFinished, useLiveStore } from './live-store.ts';

// Admin sockets also receive every other user's events: only those of the account the dashboard
// acts on (the signed-in user's own, or the chosen team's) may patch what its screens show.
const isOwn = (userId: string) => userId === actingAccountId();

/**
 * The signed-in user's game servers changed: applied to the status already fetched (a status not
 * fetched yet will include it). While the status is being fetched, the answer on its way may have
 * been made before this change and would replace it when it lands: that fetch is dropped and made
 * again, so it includes the change.
 */
export function onGameServers({ changes }: GameServersEvent): void {
  const own = changes.filter((change) => isOwn(change.userId));
  if (own.length === 0) return;
  const { queryKey } = gameStatusQuery();
  const state = queryClient.getQueryState<GameStatus>(queryKey);
  if (state?.fetchStatus === 'fetching') {
    // (A plain invalidation would join the fetch on its way when there is no data yet.)
    void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
    return;
  }
  queryClient.setQueryData<GameStatus>(queryKey, (status) =>
    status ? own.reduce(applyServersChange, status) : status,
  );
}

export function onCommandUpdate({ command }: CommandUpdateEvent): void {
  if (!isOwn(command.userId)) return;
  useLiveStore.getState().commandUpdated(command);
  if (command.executionId && isFinished(command)) void refreshScriptList();
}

export function onExecutionResult({ userId, execution }: ExecutionResultEvent): void {
  if (!isOwn(userId)) return;
  useLiveStore.getState().executionFinished(execution);
  void refreshScriptList();
}

/** New console lines: their errors count on the server cards (the console views listen themselves). */
export function onConsoleLines({ userId, lines }: ConsoleLinesEvent): void {
  if (isOwn(userId)) countNewErrors(lines);
}

/** Events may have been missed while the socket was down: the status is fetched again on (re)connect. */
function onConnect(): void {
  void queryClient.invalidateQueries({ queryKey: gameStatusQuery().queryKey });
  void queryClient.invalidateQueries({ queryKey: consoleErrorCountsQuery().queryKey });
}

/**
 * Keeps the screens current from the live socket (mounted once, in the signed-in app): game-server
 * changes into the status query, command updates and late execution results into the live store,
 * console errors into the server cards' counts.
 */
export function useLiveEvents(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!token) return;
    const socket = liveSocketFor(token);
    socket.on('connect', onConnect);
    socket.on('game:servers', onGameServers);
    socket.on('command:update', onCommandUpdate);
    socket.on('execution:result', onExecutionResult);
    socket.on('console:lines', onConsoleLines);
    // The socket lives as long as the session (lib/socket.ts closes it); only the listeners go here.
    return () => {
      socket.off('connect', onConnect);
      socket.off('game:servers', onGameServers);
      socket.off('command:update', onCommandUpdate);
      socket.off('execution:result', onExecutionResult);
      socket.off('console:lines', onConsoleLines);
      useLiveStore.getState().clear();
    };
  }, [token]);
}
