import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { ApiError } from '../../../lib/api-client.ts';
import { executionOutcome } from '../../../lib/execution-result.ts';
import { canWith, useTeamPermissions } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useExecuteCatalogueScript, useImportCatalogueScript } from '../api/catalogue.ts';
import { CATALOGUE_TOASTS } from '../catalogue-text.ts';

/** The spec's sentence, with the server's reason in parentheses when it gave one. */
const withReason = (sentence: string, error: unknown) => {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  return reason ? `${sentence} (${reason})` : sentence;
};

/**
 * Execute and Save for a catalogue script, with section 8's toasts: 'Script Queued', 'Script
 * Executed', 'Game Not Connected' with the instructions, 'Execution Failed' (the outcomes every
 * screen shares), and 'Error' when the call itself fails. `busyId` says which script is at work.
 * `can` says what the member's role allows: Execute runs code in the live game (runs.sandbox, which
 * every run asks, and runs.game); Save adds a script (scripts.write).
 */
export function useCatalogueActions() {
  const permissions = useTeamPermissions();
  const can = {
    run: canWith(permissions, 'runs.sandbox', 'runs.game'),
    save: canWith(permissions, 'scripts.write'),
  };
  const execute = useExecuteCatalogueScript();
  const save = useImportCatalogueScript();

  // mutateAsync: the toast must show even if the card or the dialog is gone by the time it answers.
  const run = async (script: CatalogueScript) => {
    try {
      notify(executionOutcome(await execute.mutateAsync(script), 'game').notice);
    } catch (error) {
      notify({
        type: 'error',
        title: CATALOGUE_TOASTS.executeFailed.title,
        description: withReason(CATALOGUE_TOASTS.executeFailed.description, error),
      });
    }
  };

  const importScript = async (script: CatalogueScript, autoExecute: boolean) => {
    try {
      const saved = await save.mutateAsync({ script, autoExecute });
      notify({
        title: CATALOGUE_TOASTS.saved,
        description: CATALOGUE_TOASTS.savedDescription(saved.name, autoExecute),
      });
    } catch (error) {
      notify({
        type: 'error',
        title: CATALOGUE_TOASTS.saveFailed.title,
        description: withReason(CATALOGUE_TOASTS.saveFailed.description, error),
      });
    }
  };

  return {
    can,
    run,
    save: importScript,
    executingId: execute.isPending ? execute.variables?._id : undefined,
    savingId: save.isPending ? save.variables?.script._id : undefined,
  };
}
