import { HStack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Copy, Pencil, Play, Trash2 } from 'lucide-react';
import type { Script } from '@moonrelay/contract/scripts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { notify } from '../../../lib/toaster.tsx';
import { useDeleteScript, useDuplicateScript } from '../api/scripts.ts';
import { ActionIconButton } from './ActionIconButton.tsx';
import { LastModified } from './LastModified.tsx';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { useRunScript } from './useRunScript.ts';

const COLUMNS = 5;

interface Props {
  scripts: Script[];
  /** Shown in place of the rows when `scripts` is empty. */
  emptyText: string;
}

export function ScriptsTable({ scripts, emptyText }: Props) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Last Modified</Table.ColumnHeader>
            {/* The same count as the dashboard's Total Executions adds up (docs/decisions/046). */}
            <Table.ColumnHeader textAlign="end" title="Runs of this script, all time, on any target">
              Executions
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {scripts.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={COLUMNS} py="10" textAlign="center" color="fg.muted">
                {emptyText}
              </Table.Cell>
            </Table.Row>
          ) : (
            scripts.map((script) => <ScriptRow key={script.id} script={script} />)
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function ScriptRow({ script }: { script: Script }) {
  const { run, isRunning } = useRunScript();
  const duplicate = useDuplicateScript();
  const remove = useDeleteScript();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const busy = isRunning || duplicate.isPending || remove.isPending;

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

  return (
    <Table.Row aria-busy={busy || undefined}>
      <Table.Cell maxW="md">
        <Text fontWeight="medium" truncate>
          {script.name}
        </Text>
        <Text fontSize="sm" color="fg.muted" truncate>
          {script.description || 'No description'}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <ScriptTypeBadge isAutoExecute={script.isAutoExecute} />
      </Table.Cell>
      <Table.Cell>
        <LastModified iso={script.updatedAt} />
      </Table.Cell>
      <Table.Cell textAlign="end">{script.executionCount.toLocaleString('en')}</Table.Cell>
      <Table.Cell>
        <HStack gap="1" justify="flex-end">
          <ActionIconButton label="Edit" to={`/editor?id=${encodeURIComponent(script.id)}`} disabled={busy}>
            <Pencil />
          </ActionIconButton>
          <ActionIconButton label="Execute" colorPalette="green" disabled={busy} onClick={() => void run(script.id)}>
            <Play />
          </ActionIconButton>
          <ActionIconButton label="Duplicate" disabled={busy} onClick={() => void onDuplicate()}>
            <Copy />
          </ActionIconButton>
          <ActionIconButton label="Delete" colorPalette="red" disabled={busy} onClick={() => setConfirmingDelete(true)}>
            <Trash2 />
          </ActionIconButton>
        </HStack>
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={setConfirmingDelete}
          title="Delete script?"
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          onConfirm={() => void onDelete()}
        >
          <Text>&ldquo;{script.name}&rdquo; will be deleted. This cannot be undone.</Text>
        </ConfirmDialog>
      </Table.Cell>
    </Table.Row>
  );
}
