import { ApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useExecuteScript } from '../api/scripts.ts';

const EXECUTION_FAILED = 'Failed to execute script. Please try again.';

function reportFailure(reason: string | undefined): void {
  notify({
    type: 'error',
    title: 'Execution Failed',
    description: reason ? `${EXECUTION_FAILED} (${reason})` : EXECUTION_FAILED,
  });
}

/**
 * Runs a saved script and toasts the real outcome. The table and the dashboard card share it so both
 * report an execution the same way.
 */
export function useRunScript() {
  const execute = useExecuteScript();

  // mutateAsync rather than mutate callbacks: the toast must still show if the row unmounts
  // because the list refreshed meanwhile.
  const run = async (id: string) => {
    try {
      const result = await execute.mutateAsync(id);
      // The server may answer 200 with success false (e.g. a Lua error): that is still a failure.
      if (result.success === false) {
        reportFailure(result.error);
        return;
      }
      notify({ title: 'Script Executed', description: result.output || 'No output' });
    } catch (error) {
      reportFailure(error instanceof ApiError ? error.serverMessage : undefined);
    }
  };

  return { run, isRunning: execute.isPending };
}
