import { Badge, Box, Button, Center, defineStyle, Spinner, Table, Text } from '@chakra-ui/react';
import {
  NOTIFICATION_EVENT_LABELS,
  type NotificationAttempt,
  type NotificationEventKind,
} from '@moonrelay/contract/notifications';
import { memo, useCallback } from 'react';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAttempts, useRedeliver } from '../api/notifications.ts';

const label = (event: string) => NOTIFICATION_EVENT_LABELS[event as NotificationEventKind] ?? event;

/** A row's height as first guessed: a row is measured once drawn (an answer takes one line or two). */
const ROW_ESTIMATE = 44;
const rowEstimate = () => ROW_ESTIMATE;
const attemptId = (attempt: NotificationAttempt) => attempt.id;
/**
 * Rows drawn past each edge of the view: Tab always has a next Redeliver to reach, and the sticky
 * header's height, which the row positions leave out, is covered.
 */
const OVERSCAN = 6;

/**
 * How a row looks, declared once for the table: the cells' layout by class rather than style props
 * on every cell of every row.
 */
const DELIVERY_ROWS_CSS = defineStyle({
  '& td.delivery-nowrap': { whiteSpace: 'nowrap' },
  '& td.delivery-answer': { maxW: 'xs' },
  '& .delivery-answer-text': {
    lineClamp: 2,
    fontFamily: 'mono',
    fontSize: 'xs',
    wordBreak: 'break-all',
  },
});

/**
 * A destination's last 100 delivery attempts, newest first, each with a Redeliver button, in a
 * scroll box that draws only the rows in view (the log is read again every few seconds).
 */
export function DeliveryLog({ destinationId }: { destinationId: string }) {
  const attempts = useAttempts(destinationId);
  if (attempts.isPending)
    return (
      <Center py="3">
        <Spinner size="sm" />
      </Center>
    );
  if (attempts.isError)
    return <Text color="fg.error">{messageOf(attempts.error, 'The delivery log could not be loaded.')}</Text>;
  if (attempts.data.attempts.length === 0) return <Text color="fg.muted">No deliveries yet.</Text>;
  return <DeliveryRows destinationId={destinationId} attempts={attempts.data.attempts} />;
}

/** The attempts' table in its scroll box, mounted with it: the box is measured as it mounts. */
function DeliveryRows({ destinationId, attempts }: { destinationId: string; attempts: NotificationAttempt[] }) {
  const { mutateAsync } = useRedeliver();
  const onRedeliver = useCallback(
    async (eventId: string) => {
      try {
        await mutateAsync({ id: destinationId, eventId });
        notify({ title: 'Delivery queued', description: 'The event goes out again under its own id.' });
      } catch (error) {
        notify({ type: 'error', title: 'Error', description: messageOf(error, 'Could not redeliver the event.') });
      }
    },
    [mutateAsync, destinationId],
  );
  const { scrollerRef, tabIndex, measure, drawn, before, after } = useRowsInView(attempts, {
    keyOf: attemptId,
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
      aria-label="Delivery log"
      maxH="min(50vh, 24rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      borderWidth="1px"
      borderRadius="md"
    >
      <Table.Root
        size="sm"
        stickyHeader
        css={DELIVERY_ROWS_CSS}
        aria-label="Delivery log"
        aria-rowcount={attempts.length + 1}
      >
        <Table.Header>
          <Table.Row aria-rowindex={1}>
            <Table.ColumnHeader>Time</Table.ColumnHeader>
            <Table.ColumnHeader>Event</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Latency</Table.ColumnHeader>
            <Table.ColumnHeader>Answer</Table.ColumnHeader>
            <Table.ColumnHeader />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const attempt = attempts[index]!;
            return (
              <DeliveryRow
                key={attempt.id}
                attempt={attempt}
                index={index}
                measure={measure}
                onRedeliver={onRedeliver}
              />
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

/** One attempt. Memoised: the log read again every few seconds leaves the rows drawn as they are. */
const DeliveryRow = memo(function DeliveryRow({
  attempt,
  index,
  measure,
  onRedeliver,
}: {
  attempt: NotificationAttempt;
  index: number;
  measure(row: Element | null): void;
  onRedeliver(eventId: string): Promise<void>;
}) {
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  return (
    <Table.Row ref={measure} data-index={index} data-testid="delivery-row" aria-rowindex={index + 2}>
      <Table.Cell className="delivery-nowrap">{formatDateTime(attempt.at)}</Table.Cell>
      <Table.Cell>{label(attempt.event)}</Table.Cell>
      <Table.Cell>
        <Badge colorPalette={ok ? 'green' : 'red'}>{attempt.status ?? 'no answer'}</Badge>
      </Table.Cell>
      <Table.Cell className="delivery-nowrap">{attempt.latencyMs} ms</Table.Cell>
      <Table.Cell className="delivery-answer">
        <span className="delivery-answer-text">{attempt.error ?? attempt.answer}</span>
      </Table.Cell>
      <Table.Cell>
        <Button size="xs" variant="outline" onClick={() => void onRedeliver(attempt.eventId)}>
          Redeliver
        </Button>
      </Table.Cell>
    </Table.Row>
  );
});
