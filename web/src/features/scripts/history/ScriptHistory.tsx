import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  defineStyle,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { ChevronDown, ChevronRight, GitCompare, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { ScriptVersion, ScriptVersionSummary } from '@moonrelay/contract/script-versions';
import { SCRIPT_VERSIONS_KEPT } from '@moonrelay/contract/script-versions';
import type { Script } from '@moonrelay/contract/scripts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime, timeAgo } from '../../../lib/format.ts';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
import { useCan, type Can } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRestoreVersion, useScriptVersion, useScriptVersions } from '../api/script-versions.ts';
import { VersionDiff } from './VersionDiff.tsx';

export const HISTORY_TEXT = {
  title: 'History',
  intro: `Every save that changes this script is kept here (the last ${SCRIPT_VERSIONS_KEPT}). Compare any two versions, or restore one: the restore is saved as a new version, so nothing is lost.`,
  restored: 'Version restored',
  restoreFailed: 'Restore failed',
  loadFailed: 'The history could not be loaded.',
  /** The note's name for Restore, when the member's role does not allow it. */
  restoreAction: 'Restore a version',
} as const;

const versionLabel = (number: number) => `Version ${number}`;

/** A row's height as first guessed: a row is measured once drawn (who saved it may take two lines). */
const ROW_ESTIMATE = 41;
const rowEstimate = () => ROW_ESTIMATE;
const versionNumber = (version: ScriptVersionSummary) => version.number;
/**
 * Rows drawn past each edge of the view: Tab always has a next Compare and Restore to reach, and
 * the sticky header's height, which the row positions leave out, is covered.
 */
const OVERSCAN = 6;

/**
 * How a row looks, declared once for the table: the cells' layout by class rather than style props
 * on every cell of every row (decision 051).
 */
const VERSION_ROWS_CSS = defineStyle({
  '& td.version-nowrap': { whiteSpace: 'nowrap' },
  '& td.version-by': { minW: '40' },
  '& td.version-lines': { display: { base: 'none', md: 'table-cell' } },
  '& td.version-actions': { textAlign: 'end' },
  '& .version-buttons': { display: 'inline-flex', justifyContent: 'flex-end', gap: '1' },
});

/** How a version came to be, as the list says it. */
function origin(version: ScriptVersionSummary): string {
  const who = version.savedBy ?? 'a deleted account';
  const key = version.savedByKey ? ` with the key “${version.savedByKey}”` : '';
  if (version.savedVia === 'restore') return `${who}, restoring version ${version.restoredFrom}${key}`;
  if (version.savedVia === 'key') return `${who},${key || ' with the API key'}`;
  return who;
}

/** The fields other than code that differ between two versions, as "Name: A → B". */
function fieldChanges(older: ScriptVersion, newer: ScriptVersion): string[] {
  const changes: string[] = [];
  const show = (value: string | null) => (value ? `“${value}”` : 'none');
  if (older.name !== newer.name) changes.push(`Name: ${show(older.name)} → ${show(newer.name)}`);
  if (older.description !== newer.description)
    changes.push(`Description: ${show(older.description)} → ${show(newer.description)}`);
  if (older.isAutoExecute !== newer.isAutoExecute)
    changes.push(
      `Execution type: ${older.isAutoExecute ? 'Auto-Execute' : 'Manual'} → ${newer.isAutoExecute ? 'Auto-Execute' : 'Manual'}`,
    );
  if (
    older.gameId !== newer.gameId ||
    JSON.stringify(older.autoExecuteGames) !== JSON.stringify(newer.autoExecuteGames)
  )
    changes.push('Game configuration changed');
  return changes;
}

interface Props {
  script: Script;
  /** The editor holds unsaved edits, which a restore replaces. */
  dirty: boolean;
  /** A version was restored: the editor shows the script as it now is. */
  onRestored(script: Script): void;
}

/**
 * The editor's History panel: the script's versions, newest first; any two side by side; Restore.
 * Closed until asked for, so opening a script fetches no history.
 */
export function ScriptHistory({ script, dirty, onRestored }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <Card.Root data-testid="script-history">
      <Card.Header>
        <Button
          variant="ghost"
          justifyContent="flex-start"
          px="0"
          aria-expanded={open}
          aria-controls="script-history-body"
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown size={16} /> : <ChevronRight size={16} />}
          <History size={16} />
          <Heading size="md" as="span">
            {HISTORY_TEXT.title}
          </Heading>
          <Badge variant="subtle">{versionLabel(script.version)}</Badge>
        </Button>
      </Card.Header>
      {open && (
        <Card.Body id="script-history-body" pt="0">
          <HistoryBody script={script} dirty={dirty} onRestored={onRestored} />
        </Card.Body>
      )}
    </Card.Root>
  );
}

function HistoryBody({ script, dirty, onRestored }: Props) {
  const versions = useScriptVersions(script.id, script.version);
  const [picked, setPicked] = useState<{ from: number; to: number } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const restore = useRestoreVersion();
  // A restore saves the script anew: a role without scripts.write may compare versions, not restore one.
  const canRestore = useCan('scripts.write');

  if (versions.isPending)
    return (
      <Center py="8">
        <Spinner aria-label="Loading history" />
      </Center>
    );
  if (versions.isError)
    return (
      <Stack align="flex-start">
        <Text>{HISTORY_TEXT.loadFailed}</Text>
        <Button size="sm" variant="outline" onClick={() => void versions.refetch()}>
          Try again
        </Button>
      </Stack>
    );

  const items = versions.data.items;
  // By default: what the last save changed (the version before the current one, against it).
  const compared = picked ?? { from: items[1]?.number ?? script.version, to: script.version };
  const numbers = items.map((item) => item.number);

  const confirmRestore = async () => {
    if (restoring === null) return;
    try {
      const restored = await restore.mutateAsync({ scriptId: script.id, number: restoring });
      notify({
        title: HISTORY_TEXT.restored,
        description: `${versionLabel(restoring)} is now ${versionLabel(restored.version)}.`,
      });
      setRestoring(null);
      setPicked(null);
      onRestored(restored);
    } catch (error) {
      notify({
        type: 'error',
        title: HISTORY_TEXT.restoreFailed,
        description: messageOf(error, HISTORY_TEXT.restoreFailed),
      });
    }
  };

  return (
    <Stack gap="5">
      <Text fontSize="sm" color="fg.muted">
        {HISTORY_TEXT.intro}
      </Text>

      <Stack gap="3">
        <HStack gap="3" align="flex-end" wrap="wrap">
          <VersionPicker
            label="Compare"
            value={compared.from}
            numbers={numbers}
            current={script.version}
            onChange={(from) => setPicked({ ...compared, from })}
          />
          <VersionPicker
            label="with"
            value={compared.to}
            numbers={numbers}
            current={script.version}
            onChange={(to) => setPicked({ ...compared, to })}
          />
        </HStack>
        <Comparison scriptId={script.id} from={compared.from} to={compared.to} />
      </Stack>

      <VersionRows
        items={items}
        canRestore={canRestore}
        onCompare={(number) => setPicked({ from: number, to: script.version })}
        onRestore={setRestoring}
      />
      <PermissionNotes notes={[{ action: HISTORY_TEXT.restoreAction, can: canRestore }]} />

      <ConfirmDialog
        trigger={<span hidden />}
        open={restoring !== null}
        onOpenChange={(next) => !next && setRestoring(null)}
        title={`Restore version ${restoring ?? ''}?`}
        confirmLabel="Restore"
        pendingLabel="Restoring..."
        pending={restore.isPending}
        onConfirm={() => void confirmRestore()}
      >
        <Stack gap="2">
          <Text>
            The script becomes what it was in version {restoring}: its code, name, description and game settings. This
            is saved as a new version, so the current one stays in the history.
          </Text>
          {dirty && (
            <Alert.Root status="warning" size="sm">
              <Alert.Indicator />
              <Alert.Title>Your unsaved changes in the editor will be replaced.</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}

function VersionPicker(props: {
  label: string;
  value: number;
  numbers: number[];
  current: number;
  onChange(value: number): void;
}) {
  return (
    <Field.Root width="auto">
      <Field.Label>{props.label}</Field.Label>
      <NativeSelect.Root size="sm" width="48">
        <NativeSelect.Field value={props.value} onChange={(event) => props.onChange(Number(event.currentTarget.value))}>
          {props.numbers.map((number) => (
            <option key={number} value={number}>
              {versionLabel(number)}
              {number === props.current ? ' (current)' : ''}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/**
 * The versions (up to SCRIPT_VERSIONS_KEPT) in a scroll box of their own that draws only the rows
 * in view: the history sits below the editor in the page, and a hundred rows of buttons drawn at
 * once cost the page what a screenful does now. Spacer rows (hidden from screen readers) stand in
 * for the rows not drawn; each row says its place in the whole table.
 */
function VersionRows({
  items,
  canRestore,
  onCompare,
  onRestore,
}: {
  items: ScriptVersionSummary[];
  canRestore: Can;
  onCompare(number: number): void;
  onRestore(number: number): void;
}) {
  const { scrollerRef, tabIndex, measure, drawn, before, after } = useRowsInView(items, {
    keyOf: versionNumber,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ROW_ESTIMATE * 10,
  });
  return (
    // No scroll anchoring: the browser keeping a row in place as the space above changes would scroll again.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label="Versions"
      maxH="min(60vh, 28rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
    >
      <Table.Root size="sm" stickyHeader css={VERSION_ROWS_CSS} aria-label="Versions" aria-rowcount={items.length + 1}>
        <Table.Header>
          <Table.Row aria-rowindex={1}>
            <Table.ColumnHeader>Version</Table.ColumnHeader>
            <Table.ColumnHeader>Saved</Table.ColumnHeader>
            <Table.ColumnHeader>By</Table.ColumnHeader>
            <Table.ColumnHeader hideBelow="md">Lines</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const item = items[index]!;
            return (
              <VersionRow
                key={item.number}
                item={item}
                index={index}
                measure={measure}
                canRestore={canRestore}
                onCompare={onCompare}
                onRestore={onRestore}
              />
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

function VersionRow({
  item,
  index,
  measure,
  canRestore,
  onCompare,
  onRestore,
}: {
  item: ScriptVersionSummary;
  index: number;
  measure(row: Element | null): void;
  canRestore: Can;
  onCompare(number: number): void;
  onRestore(number: number): void;
}) {
  return (
    <Table.Row ref={measure} data-index={index} data-testid={`version-${item.number}`} aria-rowindex={index + 2}>
      <Table.Cell className="version-nowrap">
        {versionLabel(item.number)}{' '}
        {item.current && (
          <Badge colorPalette="purple" variant="subtle">
            Current
          </Badge>
        )}
      </Table.Cell>
      <Table.Cell className="version-nowrap" title={formatDateTime(item.createdAt)}>
        {timeAgo(item.createdAt)}
      </Table.Cell>
      <Table.Cell className="version-by">{origin(item)}</Table.Cell>
      <Table.Cell className="version-lines">{item.lines.toLocaleString('en')}</Table.Cell>
      <Table.Cell className="version-actions">
        {!item.current && (
          <span className="version-buttons">
            <Button
              size="xs"
              variant="ghost"
              onClick={() => onCompare(item.number)}
              aria-label={`Compare version ${item.number} with the current version`}
            >
              <GitCompare size={14} /> Compare
            </Button>
            <Button
              size="xs"
              variant="outline"
              onClick={() => onRestore(item.number)}
              disabled={!canRestore.allowed}
              title={canRestore.reason}
              aria-label={`Restore version ${item.number}`}
            >
              <RotateCcw size={14} /> Restore
            </Button>
          </span>
        )}
      </Table.Cell>
    </Table.Row>
  );
}

/** Two versions fetched in full, their code side by side and what else changed listed. */
function Comparison({ scriptId, from, to }: { scriptId: string; from: number; to: number }) {
  const older = useScriptVersion(scriptId, from);
  const newer = useScriptVersion(scriptId, to);
  if (older.isError || newer.isError)
    return <Text color="fg.error">{messageOf(older.error ?? newer.error, 'The versions could not be loaded.')}</Text>;
  if (!older.data || !newer.data)
    return (
      <Center py="6">
        <Spinner size="sm" aria-label="Loading versions" />
      </Center>
    );
  const changes = fieldChanges(older.data, newer.data);
  return (
    <Stack gap="2">
      {changes.length > 0 && (
        <Stack gap="0.5" fontSize="sm" data-testid="field-changes">
          {changes.map((change) => (
            <Text key={change}>{change}</Text>
          ))}
        </Stack>
      )}
      <VersionDiff
        older={{ label: versionLabel(older.data.number), code: older.data.code }}
        newer={{ label: versionLabel(newer.data.number), code: newer.data.code }}
      />
    </Stack>
  );
}
