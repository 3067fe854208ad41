import { notify } from '../../../lib/toaster.tsx';
import { useExecuteScript } from '../api/scripts.ts';
import { executionFailure, executionOutcome } from '../../../lib/execution-result.ts';

/**
 * Runs a saved script in the game and toasts the real outcome: 'Game Not Connected' with the
 * instructions, 'Script Queued', 'Execution Failed' or 'Script Executed'. The table and the
 * dashboard card share it, and report a run as the Script Editor does.
 */
export function useRunScript() {
  const execute = useExecuteScript();

  // mutateAsync rather than mutate callbacks: the toast must still show if the row unmounts
  // because the list refreshed meanwhile.
  const run = async (id: string) => {
    try {
      const result = await execute.mutateAsync({ id });
      notify(executionOutcome(result).notice);
    } catch (error) {
      notify(executionFailure(error).notice);
    }
  };

  return { run, isRunning: execute.isPending };
}
