import { Badge, defineStyle, Link, Table } from '@chakra-ui/react';
import type { RunSummary } from '@moonrelay/contract/runs';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EXECUTION_TARGETS, formatDuration } from '../../../components/ExecutionOutput.tsx';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import { formatRunTime, runName } from '../run-text.ts';
import { RunStatusBadge } from '../../../components/RunStatusBadge.tsx';

/** Each row's height in pixels: fixed, so the table knows where any run is without drawing it. */
export const RUN_ROW_HEIGHT = 40;

/** Columns a phone leaves out (the run's details show them). */
export const wideOnly = { display: { base: 'none', md: 'table-cell' } } as const;

/**
 * How a row looks for what it holds (the open run, custom code, a game server), declared once for
 * the whole table: each row only says so in data attributes, so scrolling through thousands of
 * runs gives Chakra the same styles every time instead of new style props per row.
 */
export const RUN_ROWS_CSS = defineStyle({
  '& tbody tr[data-run-id]': { height: `${RUN_ROW_HEIGHT}px`, cursor: 'pointer' },
  '& tbody tr[data-selected]': { bg: 'bg.emphasized' },
  // The cells' layout, by class rather than style props on each cell: a row drawn while scrolling
  // then costs Chakra no style resolution of its own.
  '& .run-truncate': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .run-text': { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& td.run-wide': { display: { base: 'none', md: 'table-cell' } },
  '& td.run-script': { maxW: 'xs' },
  '& td.run-duration': { textAlign: 'end', whiteSpace: 'nowrap' },
  '& .run-name': { fontWeight: 'medium' },
  '& .run-name[data-custom]': { fontWeight: 'normal', color: 'fg.muted' },
  '& .run-server': { fontSize: 'xs' },
  '& .run-server[data-server]': { fontFamily: 'mono' },
  // The space standing in for rows not drawn is no row to point at: the interactive table's hover
  // colour stays off it.
  '& tbody tr[data-spacer]:hover': { bg: 'transparent' },
});

interface Props {
  run: RunSummary;
  /** The run's place in the whole list (0 for the newest), for screen readers counting rows. */
  index: number;
  startedBy: string;
  selected: boolean;
  /** The address that opens the run. */
  href: string;
  onSelect(run: RunSummary): void;
}

/**
 * One run: when, what, who started it, where, on which server, how it ended and how long it took.
 * Memoised: scrolling draws new rows at the edges, and the rows already drawn stay as they are.
 */
export const RunRow = memo(function RunRow({ run, index, startedBy, selected, href, onSelect }: Props) {
  const target = EXECUTION_TARGETS[run.target];
  const ran = run.status !== 'pending' && run.status !== 'not_connected';
  return (
    <Table.Row
      data-testid="run-row"
      data-run-id={run.id}
      data-selected={selected || undefined}
      aria-selected={selected}
      // Below the header row, which is the first.
      aria-rowindex={index + 2}
      onClick={() => onSelect(run)}
    >
      <Table.Cell className="run-truncate">
        {/* The time opens the run by keyboard too; the row's click does the same. */}
        <Link asChild variant="plain">
          <RouterLink to={href} title={formatDateTime(run.createdAt)} onClick={(event) => event.stopPropagation()}>
            {formatRunTime(run.createdAt)}
          </RouterLink>
        </Link>
      </Table.Cell>
      <Table.Cell className="run-script">
        <span className="run-text run-name" data-custom={run.scriptName === null || undefined}>
          {runName(run)}
        </span>
      </Table.Cell>
      <Table.Cell className="run-wide">
        <span className="run-text" title={startedBy}>
          {startedBy}
        </span>
      </Table.Cell>
      <Table.Cell className="run-wide">
        <Badge variant="outline" colorPalette={target.palette}>
          {target.label}
        </Badge>
      </Table.Cell>
      <Table.Cell
        className="run-server run-truncate run-wide"
        data-server={run.serverId !== null || undefined}
        title={run.serverId ?? undefined}
      >
        {/* A simulated server's id cut to 8 characters would read "simulate…": its mark says it. */}
        {isSimulatedServerId(run.serverId) ? <SimulatedBadge size="sm" /> : run.serverId ? shortId(run.serverId) : '—'}
      </Table.Cell>
      <Table.Cell className="run-truncate">
        <RunStatusBadge run={run} />
      </Table.Cell>
      <Table.Cell className="run-duration run-wide" data-testid="run-duration">
        {ran ? formatDuration(run.durationMs) : '—'}
      </Table.Cell>
    </Table.Row>
  );
});
