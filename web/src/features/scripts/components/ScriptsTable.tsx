import { HStack, Table, Text } from '@chakra-ui/react';
import { Copy, Pencil, Play, Trash2 } from 'lucide-react';
import type { Script } from '@moonrelay/contract/scripts';
import { useFocusableWhenScrolling } from '../../../lib/scroll-focus.ts';
import { ActionIconButton } from './ActionIconButton.tsx';
import { LastModified } from './LastModified.tsx';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { DeleteScriptDialog, useScriptActions, type ScriptListCan } from './script-actions.tsx';

const COLUMNS = 5;

interface Props {
  scripts: Script[];
  /** Shown in place of the rows when `scripts` is empty. */
  emptyText: string;
  /** What the member's role allows: the actions it does not are disabled, with the reason as title. */
  can: ScriptListCan;
}

/** My Scripts from the md breakpoint up (ScriptCards below it). */
export function ScriptsTable({ scripts, emptyText, can }: Props) {
  // A window too narrow for the columns scrolls the table sideways: the area is then a tab stop.
  const scroll = useFocusableWhenScrolling<HTMLDivElement>();
  return (
    <Table.ScrollArea ref={scroll.ref} tabIndex={scroll.tabIndex} role="region" aria-label="Scripts">
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
            scripts.map((script) => <ScriptRow key={script.id} script={script} can={can} />)
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function ScriptRow({ script, can }: { script: Script; can: ScriptListCan }) {
  const actions = useScriptActions(script);
  const { busy } = actions;

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
          <ActionIconButton
            label="Execute"
            colorPalette="green"
            disabled={busy || !can.run.allowed}
            reason={can.run.reason}
            onClick={actions.run}
          >
            <Play />
          </ActionIconButton>
          <ActionIconButton
            label="Duplicate"
            disabled={busy || !can.change.allowed}
            reason={can.change.reason}
            onClick={actions.duplicate}
          >
            <Copy />
          </ActionIconButton>
          <ActionIconButton
            label="Delete"
            colorPalette="red"
            disabled={busy || !can.change.allowed}
            reason={can.change.reason}
            onClick={actions.askToDelete}
          >
            <Trash2 />
          </ActionIconButton>
        </HStack>
        <DeleteScriptDialog script={script} actions={actions} />
      </Table.Cell>
    </Table.Row>
  );
}
