import { useCallback } from 'react';
import type { ConsoleLinesEvent } from '@moonrelay/contract/console';
import type { ConsoleSource } from '../../../components/console/console-source.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';

/**
 * The signed-in user's new console lines from the live socket, for a console view. Admin sockets
 * may carry other users' events too: only the user's own reach the view.
 */
export function useConsoleSubscription(): NonNullable<ConsoleSource['subscribe']> {
  const token = useSession((state) => state.token);
  return useCallback(
    (listener) => {
      if (!token) return () => {};
      const socket = liveSocketFor(token);
      const onLines = (event: ConsoleLinesEvent) => {
        if (event.userId === useSession.getState().user?.id) listener(event);
      };
      socket.on('console:lines', onLines);
      return () => {
        socket.off('console:lines', onLines);
      };
    },
    [token],
  );
}
