import { useCallback } from 'react';
import type { ConsoleLinesEvent } from '@moonrelay/contract/console';
import type { ConsoleSource } from '../../../components/console/console-source.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';
import { actingAccountId } from '../../../lib/team.ts';

/**
 * New console lines of the account the dashboard acts on (the user's own, or the chosen team's)
 * from the live socket, for a console view. Admin sockets may carry other users' events too: only
 * that account's reach the view.
 */
export function useConsoleSubscription(): NonNullable<ConsoleSource['subscribe']> {
  const token = useSession((state) => state.token);
  return useCallback(
    (listener) => {
      if (!token) return () => {};
      const socket = liveSocketFor(token);
      const onLines = (event: ConsoleLinesEvent) => {
        if (event.userId === actingAccountId()) listener(event);
      };
      socket.on('console:lines', onLines);
      return () => {
        socket.off('console:lines', onLines);
      };
    },
    [token],
  );
}
