import { Badge, Box, Stack } from '@chakra-ui/react';
import { memo } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AuditEntry, AuditPage } from '@moonrelay/contract/admin';
import { IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';
import { formatDateTime } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { ADMIN_ENTRIES_CSS } from '../lists/admin-entries-css.ts';
import { useRowsInView } from '../../../../lib/rows-in-view.ts';
import { ADMIN_LIST_HEIGHT_PX, ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';

interface Props {
  audit: UseQueryResult<AuditPage>;
  page: number;
  onPage(page: number): void;
}

/** "type: heal · userIds: [...]": an entry's details on one line. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}

const entryId = (entry: AuditEntry) => entry.id;
/** An entry's height before it is measured: its line, and a line of details. */
const ROW_ESTIMATE = 70;
const rowEstimate = () => ROW_ESTIMATE;
/** Entries drawn past each edge of the area. */
const OVERSCAN = 4;

/**
 * Audit Logs: every audited action, newest first; new entries arrive live at the top. Only the
 * entries its 600px area shows are drawn, with space for the others.
 */
export function AuditLogTab({ audit, page, onPage }: Props) {
  const items = audit.data?.items ?? [];
  const { scrollerRef, tabIndex, drawn, before, after, measure } = useRowsInView(items, {
    keyOf: entryId,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ADMIN_LIST_HEIGHT_PX,
  });
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.audit}
        scrollerRef={scrollerRef}
        tabIndex={tabIndex}
        loading={audit.isPending}
        error={audit.isError && !audit.data ? audit.error : null}
        onRetry={() => void audit.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noAudit}
      >
        <Box as="ul" aria-label={ADMIN_TEXT.tabs.audit} css={ADMIN_ENTRIES_CSS}>
          {before > 0 && <li aria-hidden data-spacer style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const entry = items[index]!;
            return <AuditRow key={entry.id} entry={entry} index={index} setSize={items.length} measure={measure} />;
          })}
          {after > 0 && <li aria-hidden data-spacer style={{ height: after }} />}
        </Box>
      </ListArea>
      {audit.data && <Pager page={page} total={audit.data.total} onPage={onPage} />}
    </Stack>
  );
}

interface RowProps {
  entry: AuditEntry;
  /** The entry's place on the page (0 for the newest). */
  index: number;
  setSize: number;
  measure(element: HTMLElement | null): void;
}

/** One entry. Memoised and styled by the list's classes: scrolling leaves the drawn rows as they are. */
const AuditRow = memo(function AuditRow({ entry, index, setSize, measure }: RowProps) {
  const details = detailsText(entry.details);
  return (
    <li ref={measure} data-index={index} aria-posinset={index + 1} aria-setsize={setSize} data-testid="audit-entry">
      <div className="admin-entry-head">
        <div className="admin-entry-what">
          <Badge colorPalette="purple" className="admin-entry-mono">
            {entry.action}
          </Badge>
          <span className="admin-entry-muted">{entry.targetType}</span>
          {entry.targetId && (
            <span className="admin-entry-id" title={entry.targetId}>
              {entry.targetId.slice(0, IDENTIFIER_DISPLAY_LENGTH)}
            </span>
          )}
          {entry.actorName && <span className="admin-entry-muted">by {entry.actorName}</span>}
        </div>
        <span className="admin-entry-muted admin-entry-time">{formatDateTime(entry.createdAt)}</span>
      </div>
      {details && (
        <p className="audit-details" title={details}>
          {details}
        </p>
      )}
    </li>
  );
});
