import { Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import type { ScriptSummary } from '@moonrelay/contract/scripts';
import type { TeamPermission } from '@moonrelay/contract/teams';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { canWith, useTeamPermissions, type Can } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useDeleteScript, useDuplicateScript } from '../api/scripts.ts';
import { useRunScript } from './useRunScript.ts';

/**
 * What the member's role allows of the script lists, worked out once per list rather than per row:
 * reading the scripts at all, Execute (a run in the live game: runs.sandbox, which every run asks,
 * and runs.game), and New Script, Duplicate and Delete (scripts.write).
 */
export interface ScriptListCan {
  read: Can;
  run: Can;
  change: Can;
}

export function useScriptListCan(): ScriptListCan {
  const permissions = useTeamPermissions();
  // The same object while the role stays the same, so the list's memoised rows are not drawn again.
  const held = permissions === 'all' ? 'all' : [...permissions].sort().join(' ');
  return useMemo(() => {
    const set = held === 'all' ? 'all' : new Set(held.split(' ').filter(Boolean) as TeamPermission[]);
    return {
      read: canWith(set, 'scripts.read'),
      run: canWith(set, 'runs.sandbox', 'runs.game'),
      change: canWith(set, 'scripts.write'),
    };
  }, [held]);
}

/** What a script's actions in My Scripts do (Execute, Duplicate, Delete), for its row or its card. */
export interface ScriptActions {
  /** Something is under way for this script: its actions wait. */
  busy: boolean;
  run(): void;
  duplicate(): void;
  /** Opens the confirmation; Delete itself is the dialog's. */
  askToDelete(): void;
  confirmingDelete: boolean;
  setConfirmingDelete(open: boolean): void;
  deleting: boolean;
  confirmDelete(): void;
}

export function useScriptActions(script: ScriptSummary): ScriptActions {
  const { run, isRunning } = useRunScript();
  const duplicate = useDuplicateScript();
  const remove = useDeleteScript();
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  // mutateAsync: a deleted row unmounts when the list refreshes, and its toast must still show.
  const onDuplicate = async () => {
    try {
      const copy = await duplicate.mutateAsync(script);
      notify({ title: 'Script Duplicated', description: `Created "${copy.name}".` });
    } catch {
      notify({ type: 'error', title: 'Error', description: 'Failed to duplicate script. Please try again.' });
    }
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync(script.id);
      setConfirmingDelete(false);
      notify({ title: 'Script Deleted', description: `"${script.name}" was deleted.` });
    } catch {
      // The dialog stays open so the user can try again or cancel.
      notify({ type: 'error', title: 'Error', description: 'Failed to delete script. Please try again.' });
    }
  };

  return {
    busy: isRunning || duplicate.isPending || remove.isPending,
    run: () => void run(script.id),
    duplicate: () => void onDuplicate(),
    askToDelete: () => setConfirmingDelete(true),
    confirmingDelete,
    setConfirmingDelete,
    deleting: remove.isPending,
    confirmDelete: () => void onDelete(),
  };
}

/** The confirmation before a script is deleted. */
export function DeleteScriptDialog({ script, actions }: { script: ScriptSummary; actions: ScriptActions }) {
  return (
    <ConfirmDialog
      open={actions.confirmingDelete}
      onOpenChange={actions.setConfirmingDelete}
      title="Delete script?"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={actions.deleting}
      onConfirm={actions.confirmDelete}
    >
      <Text>&ldquo;{script.name}&rdquo; will be deleted. This cannot be undone.</Text>
    </ConfirmDialog>
  );
}
