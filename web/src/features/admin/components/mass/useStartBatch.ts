import type { MassExecutionRequest } from '@moonrelay/contract/admin';
import type { GameCommandType } from '@moonrelay/contract/game';
import { ApiError } from '../../../../lib/api-client.ts';
import { failureDescription } from '../../../../lib/execution-result.ts';
import { notify, type Notice } from '../../../../lib/toaster.tsx';
import { useStartMassExecution } from '../../api/mass-execution.ts';
import { useAdminLiveStore, type BatchUser } from '../../live/admin-live-store.ts';

interface Toasts {
  sent: { title: string; description: string };
  failed: { title: string; description: string };
}

/**
 * Starts a mass execution for `users` and records the batch, so its progress rows show at once
 * (each user 'queued') and move on as 'mass:progress' events arrive. Toasts the outcome; a refusal
 * carries the server's reason (a Lua syntax error, say) after the spec's sentence.
 */
export function useStartBatch() {
  const start = useStartMassExecution();

  const startBatch = async (
    users: BatchUser[],
    what: GameCommandType | 'script',
    body: Omit<MassExecutionRequest, 'userIds'>,
    toasts: Toasts,
  ): Promise<boolean> => {
    try {
      const answer = await start.mutateAsync({ userIds: users.map((user) => user.id), ...body });
      useAdminLiveStore
        .getState()
        .batchStarted({ batchId: answer.batchId, what, users, startedAt: new Date().toISOString() }, answer.items);
      notify(toasts.sent);
      return true;
    } catch (error) {
      const reason = error instanceof ApiError ? error.serverMessage : undefined;
      const notice: Notice = {
        type: 'error',
        title: toasts.failed.title,
        description: failureDescription(reason, toasts.failed.description),
      };
      notify(notice);
      return false;
    }
  };

  return { startBatch, isStarting: start.isPending };
}
