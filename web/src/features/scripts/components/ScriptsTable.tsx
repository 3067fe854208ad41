import { Box, defineStyle, HStack, Table, Text } from '@chakra-ui/react';
import { Copy, Pencil, Play, Trash2 } from 'lucide-react';
import { memo } from 'react';
import type { ScriptSummary } from '@moonrelay/contract/scripts';
import { usePagedRows } from '../../../lib/paged-rows.ts';
import { ActionIconButton } from './ActionIconButton.tsx';
import { LastModified } from './LastModified.tsx';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { DeleteScriptDialog, useScriptActions, type ScriptListCan } from './script-actions.tsx';

const COLUMNS = 5;
/** Each row's height in pixels: fixed, so the table knows where any script is without drawing it. */
export const SCRIPT_ROW_HEIGHT = 60;
/** Rows drawn past each edge of the view: Tab always has a next row to reach, and the header is covered. */
const OVERSCAN = 8;
const rowHeight = () => SCRIPT_ROW_HEIGHT;
export const scriptId = (script: ScriptSummary) => script.id;

/**
 * How a row looks, declared once for the whole table: each row says what it is in data attributes,
 * so scrolling through a thousand scripts gives Chakra the same styles every time instead of new
 * style props per row (docs/decisions/051).
 */
const SCRIPT_ROWS_CSS = defineStyle({
  '& tbody tr[data-script-id]': { height: `${SCRIPT_ROW_HEIGHT}px` },
  '& tbody tr[data-busy]': { opacity: 0.7 },
  '& .script-name': { fontWeight: 'medium' },
  '& .script-description': { fontSize: 'sm', color: 'fg.muted' },
  // The space standing in for rows not drawn is no row to point at: no hover colour.
  '& tbody tr[data-spacer]:hover': { bg: 'transparent' },
});

/** The columns keep one width however different the scripts in view are (the name takes the rest). */
const widths = {
  type: { w: '8rem' },
  modified: { w: '10rem' },
  executions: { w: '7rem' },
  actions: { w: '11rem' },
} as const;

export interface ScriptListProps {
  scripts: ScriptSummary[];
  /** Shown in place of the rows when `scripts` is empty. */
  emptyText: string;
  /** What the member's role allows: the actions it does not are disabled, with the reason as title. */
  can: ScriptListCan;
  /** Whether more scripts remain to be loaded. */
  more: boolean;
  /** Whether the next page may be asked for now (none on its way, the last one did not fail). */
  loadAhead: boolean;
  /** Asks for the next page: the end of the loaded scripts comes into view. */
  onNeedMore(): void;
}

/**
 * My Scripts from the md breakpoint up (ScriptCards below it): a scroll area that draws only the
 * rows in view. Rows not drawn are stood in for by empty rows of their height, so the table, its
 * header and its row numbers stay whole for screen readers.
 */
export function ScriptsTable({ scripts, emptyText, can, more, loadAhead, onNeedMore }: ScriptListProps) {
  const { scrollerRef, tabIndex, drawn, before, after } = usePagedRows(
    scripts,
    { keyOf: scriptId, estimateSize: rowHeight, overscan: OVERSCAN },
    { more, loadAhead, onNeedMore },
  );

  return (
    // No scroll anchoring: the browser keeping a row in place as the space above it changes would
    // scroll again, and again.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label="Scripts"
      maxH="min(70vh, 42rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      data-testid="scripts-scroller"
    >
      <Table.Root
        size="sm"
        interactive
        stickyHeader
        tableLayout="fixed"
        // Narrower than this, the area scrolls sideways rather than squeeze the script's name.
        minW="46rem"
        css={SCRIPT_ROWS_CSS}
        aria-label="Scripts"
        // Unknown (-1) while more pages remain; the header row is the first.
        aria-rowcount={scripts.length === 0 ? undefined : more ? -1 : scripts.length + 1}
      >
        <Table.Header>
          <Table.Row aria-rowindex={scripts.length === 0 ? undefined : 1}>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader {...widths.type}>Type</Table.ColumnHeader>
            <Table.ColumnHeader {...widths.modified}>Last Modified</Table.ColumnHeader>
            {/* The same count as the dashboard's Total Executions adds up (docs/decisions/046). */}
            <Table.ColumnHeader
              textAlign="end"
              title="Runs of this script, all time, on any target"
              {...widths.executions}
            >
              Executions
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" {...widths.actions}>
              Actions
            </Table.ColumnHeader>
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
            <>
              {before > 0 && <tr aria-hidden data-spacer style={{ height: before }} />}
              {drawn.map(({ index }) => {
                const script = scripts[index]!;
                return <ScriptRow key={script.id} script={script} index={index} can={can} />;
              })}
              {after > 0 && <tr aria-hidden data-spacer style={{ height: after }} />}
            </>
          )}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

/**
 * One script: name and description, type, when it last changed, its runs, and its actions.
 * Memoised: scrolling draws new rows at the edges, and the rows already drawn stay as they are.
 */
const ScriptRow = memo(function ScriptRow({
  script,
  index,
  can,
}: {
  script: ScriptSummary;
  /** The script's place in the whole list (0 for the first), for screen readers counting rows. */
  index: number;
  can: ScriptListCan;
}) {
  const actions = useScriptActions(script);
  const { busy } = actions;

  return (
    <Table.Row
      data-testid="script-row"
      data-script-id={script.id}
      data-busy={busy || undefined}
      aria-busy={busy || undefined}
      // Below the header row, which is the first.
      aria-rowindex={index + 2}
    >
      <Table.Cell>
        <Text className="script-name" truncate>
          {script.name}
        </Text>
        <Text className="script-description" truncate>
          {script.description || 'No description'}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <ScriptTypeBadge isAutoExecute={script.isAutoExecute} />
      </Table.Cell>
      <Table.Cell truncate>
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
});
