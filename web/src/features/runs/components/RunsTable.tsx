import { Badge, Link, Table, Text } from '@chakra-ui/react';
import type { RunSummary } from '@moonrelay/contract/runs';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { Link as RouterLink } from 'react-router-dom';
import { EXECUTION_TARGETS, formatDuration } from '../../../components/ExecutionOutput.tsx';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { useSession } from '../../../lib/session.ts';
import { formatRunTime, runName, startedByText } from '../run-text.ts';
import { RunStatusBadge } from '../../../components/RunStatusBadge.tsx';

const COLUMNS = 7;
/** Columns a phone leaves out (the run's details show them). */
const wideOnly = { display: { base: 'none', md: 'table-cell' } } as const;

interface Props {
  runs: RunSummary[];
  /** Shown in place of the rows when `runs` is empty. */
  emptyText: string;
  selectedId: string | null;
  /** The address that opens a run (the page's filters kept). */
  hrefOf(run: RunSummary): string;
  onSelect(run: RunSummary): void;
}

/** The runs, newest first: when, what, who started it, where, on which server, how it ended and how long it took. */
export function RunsTable({ runs, emptyText, selectedId, hrefOf, onSelect }: Props) {
  const myId = useSession((state) => state.user?.id);
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive aria-label="Runs">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Time</Table.ColumnHeader>
            <Table.ColumnHeader>Script</Table.ColumnHeader>
            <Table.ColumnHeader {...wideOnly}>Started by</Table.ColumnHeader>
            <Table.ColumnHeader {...wideOnly}>Target</Table.ColumnHeader>
            <Table.ColumnHeader {...wideOnly}>Server</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" {...wideOnly}>
              Duration
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {runs.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={COLUMNS} py="10" textAlign="center" color="fg.muted">
                {emptyText}
              </Table.Cell>
            </Table.Row>
          ) : (
            runs.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                startedBy={startedByText(run, myId)}
                selected={run.id === selectedId}
                href={hrefOf(run)}
                onSelect={() => onSelect(run)}
              />
            ))
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

interface RowProps {
  run: RunSummary;
  startedBy: string;
  selected: boolean;
  href: string;
  onSelect(): void;
}

function RunRow({ run, startedBy, selected, href, onSelect }: RowProps) {
  const target = EXECUTION_TARGETS[run.target];
  const ran = run.status !== 'pending' && run.status !== 'not_connected';
  return (
    <Table.Row
      data-testid="run-row"
      data-run-id={run.id}
      aria-selected={selected}
      bg={selected ? 'bg.emphasized' : undefined}
      cursor="pointer"
      onClick={onSelect}
    >
      <Table.Cell whiteSpace="nowrap">
        {/* The time opens the run by keyboard too; the row's click does the same. */}
        <Link asChild variant="plain">
          <RouterLink to={href} title={formatDateTime(run.createdAt)} onClick={(event) => event.stopPropagation()}>
            {formatRunTime(run.createdAt)}
          </RouterLink>
        </Link>
      </Table.Cell>
      <Table.Cell maxW="xs">
        <Text
          truncate
          fontWeight={run.scriptName ? 'medium' : undefined}
          color={run.scriptName ? undefined : 'fg.muted'}
        >
          {runName(run)}
        </Text>
      </Table.Cell>
      <Table.Cell maxW="3xs" {...wideOnly}>
        <Text truncate title={startedBy}>
          {startedBy}
        </Text>
      </Table.Cell>
      <Table.Cell {...wideOnly}>
        <Badge variant="outline" colorPalette={target.palette}>
          {target.label}
        </Badge>
      </Table.Cell>
      <Table.Cell
        fontFamily={run.serverId ? 'mono' : undefined}
        fontSize="xs"
        title={run.serverId ?? undefined}
        {...wideOnly}
      >
        {/* A simulated server's id cut to 8 characters would read "simulate…": its mark says it. */}
        {isSimulatedServerId(run.serverId) ? <SimulatedBadge size="sm" /> : run.serverId ? shortId(run.serverId) : '—'}
      </Table.Cell>
      <Table.Cell>
        <RunStatusBadge run={run} />
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap" data-testid="run-duration" {...wideOnly}>
        {ran ? formatDuration(run.durationMs) : '—'}
      </Table.Cell>
    </Table.Row>
  );
}
