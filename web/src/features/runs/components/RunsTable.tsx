import { Box, Table } from '@chakra-ui/react';
import type { RunSummary } from '@moonrelay/contract/runs';
import { usePagedRows } from '../../../lib/paged-rows.ts';
import { useSession } from '../../../lib/session.ts';
import { RUNS_TEXT, startedByText } from '../run-text.ts';
import { RUN_ROW_HEIGHT, RUN_ROWS_CSS, RunRow, wideOnly } from './RunRow.tsx';

const COLUMNS = 7;
/**
 * Rows drawn past each edge of the view: Tab always has a next row to reach (focusing it scrolls it
 * into view, which draws the ones after it), and the header's height, which the row positions
 * leave out, is covered.
 */
const OVERSCAN = 8;
const rowHeight = () => RUN_ROW_HEIGHT;
const runId = (run: RunSummary) => run.id;

/**
 * On wider screens the columns keep one width (the script's name takes the rest) however different
 * the runs in view are: with widths from the drawn rows' content, the columns would shift as the
 * list scrolls. Below that width the table scrolls sideways rather than squeeze the script's name.
 */
const widths = {
  time: { w: { md: '11rem' } },
  startedBy: { w: { md: '10rem' } },
  target: { w: { md: '6.5rem' } },
  server: { w: { md: '7rem' } },
  status: { w: { md: '12.5rem' } },
  duration: { w: { md: '6rem' } },
} as const;

interface Props {
  runs: RunSummary[];
  /** Shown in place of the rows when `runs` is empty. */
  emptyText: string;
  selectedId: string | null;
  /** Whether older runs remain to be loaded. */
  more: boolean;
  /** Whether the next page may be asked for now (none on its way, the last one did not fail). */
  loadAhead: boolean;
  /** Asks for the next page: the end of the loaded runs comes into view. */
  onNeedMore(): void;
  /** The address that opens a run (the page's filters kept). */
  hrefOf(run: RunSummary): string;
  onSelect(run: RunSummary): void;
}

/**
 * The runs, newest first, in a scroll area that draws only the rows in view: two hundred thousand
 * runs cost the page what a screenful does. Rows not drawn are stood in for by empty rows of
 * their height, so the table, its header and its row numbers stay whole for screen readers.
 */
export function RunsTable({ runs, emptyText, selectedId, more, loadAhead, onNeedMore, hrefOf, onSelect }: Props) {
  const myId = useSession((state) => state.user?.id);
  const { scrollerRef, tabIndex, drawn, before, after } = usePagedRows(
    runs,
    { keyOf: runId, estimateSize: rowHeight, overscan: OVERSCAN },
    { more, loadAhead, onNeedMore },
  );

  return (
    // No scroll anchoring: the browser keeping a row in place as the space above it changes would
    // scroll again, and again.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label={RUNS_TEXT.listLabel}
      maxH="min(70vh, 42rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      data-testid="runs-scroller"
    >
      <Table.Root
        size="sm"
        interactive
        stickyHeader
        tableLayout={{ base: 'auto', md: 'fixed' }}
        minW={{ md: '62rem' }}
        css={RUN_ROWS_CSS}
        aria-label="Runs"
        // Unknown (-1) while older pages remain; the header row is the first.
        aria-rowcount={runs.length === 0 ? undefined : more ? -1 : runs.length + 1}
      >
        <Table.Header>
          <Table.Row aria-rowindex={runs.length === 0 ? undefined : 1}>
            <Table.ColumnHeader {...widths.time}>Time</Table.ColumnHeader>
            <Table.ColumnHeader>Script</Table.ColumnHeader>
            <Table.ColumnHeader {...widths.startedBy} {...wideOnly}>
              Started by
            </Table.ColumnHeader>
            <Table.ColumnHeader {...widths.target} {...wideOnly}>
              Target
            </Table.ColumnHeader>
            <Table.ColumnHeader {...widths.server} {...wideOnly}>
              Server
            </Table.ColumnHeader>
            <Table.ColumnHeader {...widths.status}>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" {...widths.duration} {...wideOnly}>
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
            <>
              {before > 0 && <tr aria-hidden data-spacer style={{ height: before }} />}
              {drawn.map(({ index }) => {
                const run = runs[index]!;
                return (
                  <RunRow
                    key={run.id}
                    run={run}
                    index={index}
                    startedBy={startedByText(run, myId)}
                    selected={run.id === selectedId}
                    href={hrefOf(run)}
                    onSelect={onSelect}
                  />
                );
              })}
              {after > 0 && <tr aria-hidden data-spacer style={{ height: after }} />}
            </>
          )}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
