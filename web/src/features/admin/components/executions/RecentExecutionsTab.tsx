import { Badge, Box, Stack } from '@chakra-ui/react';
import { memo } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RecentExecution, RecentExecutionPage } from '@moonrelay/contract/admin';
import { IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';
import { EXECUTION_TARGETS } from '../../../../components/ExecutionOutput.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { detailsText } from '../audit/AuditLogTab.tsx';
import { ADMIN_ENTRIES_CSS } from '../lists/admin-entries-css.ts';
import { useRowsInView } from '../../../../lib/rows-in-view.ts';
import { ADMIN_LIST_HEIGHT_PX, ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';

interface Props {
  executions: UseQueryResult<RecentExecutionPage>;
  page: number;
  onPage(page: number): void;
}

const STATUS_PALETTES: Record<string, string> = {
  succeeded: 'green',
  failed: 'red',
  not_connected: 'orange',
  queued: 'blue',
};

const executionId = (execution: RecentExecution) => execution.id;
/** A run's height before it is measured: its line, its details and a line of result. */
const ROW_ESTIMATE = 90;
const rowEstimate = () => ROW_ESTIMATE;
/** Runs drawn past each edge of the area. */
const OVERSCAN = 3;

/**
 * Recent Executions: every user's runs, newest first, with when, whose, where and what came of
 * them. Only the runs its 600px area shows are drawn, with space for the others.
 */
export function RecentExecutionsTab({ executions, page, onPage }: Props) {
  const items = executions.data?.items ?? [];
  const { scrollerRef, tabIndex, drawn, before, after, measure } = useRowsInView(items, {
    keyOf: executionId,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ADMIN_LIST_HEIGHT_PX,
  });
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.executions}
        scrollerRef={scrollerRef}
        tabIndex={tabIndex}
        loading={executions.isPending}
        error={executions.isError && !executions.data ? executions.error : null}
        onRetry={() => void executions.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noExecutions}
      >
        <Box as="ul" aria-label={ADMIN_TEXT.tabs.executions} css={ADMIN_ENTRIES_CSS}>
          {before > 0 && <li aria-hidden data-spacer style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const execution = items[index]!;
            return (
              <ExecutionRow
                key={execution.id}
                execution={execution}
                index={index}
                setSize={items.length}
                measure={measure}
              />
            );
          })}
          {after > 0 && <li aria-hidden data-spacer style={{ height: after }} />}
        </Box>
      </ListArea>
      {executions.data && <Pager page={page} total={executions.data.total} onPage={onPage} />}
    </Stack>
  );
}

/** Spec section 2: the admin who ran it, or this when the account is gone. */
const UNKNOWN_ADMIN = 'Unknown Admin';

interface RowProps {
  execution: RecentExecution;
  /** The run's place on the page (0 for the newest). */
  index: number;
  setSize: number;
  measure(element: HTMLElement | null): void;
}

/**
 * One run. Memoised and styled by the list's classes; what differs from run to run (a failure's
 * result) is said in a data attribute, not in style props of its own.
 */
const ExecutionRow = memo(function ExecutionRow({ execution, index, setSize, measure }: RowProps) {
  // Written as the audit log writes its details, so the two lists read alike.
  const details = detailsText(execution.details);
  const result = execution.error ?? execution.output;
  const target = EXECUTION_TARGETS[execution.target];
  return (
    <li
      ref={measure}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      data-testid="recent-execution"
    >
      <div className="admin-entry-head">
        <div className="admin-entry-what">
          <span className="admin-entry-muted admin-entry-time">{formatDateTime(execution.createdAt)}</span>
          <span className="execution-admin" data-testid="recent-execution-admin">
            {execution.adminName ?? UNKNOWN_ADMIN}
          </span>
          <span className="admin-entry-muted">on {execution.userName}</span>
          <span className="admin-entry-id" title={execution.targetId}>
            {execution.targetId.slice(0, IDENTIFIER_DISPLAY_LENGTH)}
          </span>
        </div>
        <div className="admin-entry-what">
          <Badge variant="outline" colorPalette={target.palette}>
            {target.label}
          </Badge>
          <Badge colorPalette={STATUS_PALETTES[execution.status] ?? 'gray'}>{execution.status.replace('_', ' ')}</Badge>
          <span className="execution-duration">{execution.durationMs} ms</span>
        </div>
      </div>
      <p className="execution-details" title={execution.codeExcerpt} data-testid="recent-execution-details">
        {details}
      </p>
      {result && (
        <p
          className="execution-result"
          data-error={execution.error !== null || undefined}
          data-testid="recent-execution-result"
        >
          {result}
        </p>
      )}
    </li>
  );
});
