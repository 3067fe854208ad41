import { Badge, Box, Button, Center, Spinner, Table, Text } from '@chakra-ui/react';
import { NOTIFICATION_EVENT_LABELS, type NotificationEventKind } from '@moonrelay/contract/notifications';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAttempts, useRedeliver } from '../api/notifications.ts';

const label = (event: string) => NOTIFICATION_EVENT_LABELS[event as NotificationEventKind] ?? event;

/** A destination's last 100 delivery attempts, newest first, each with a Redeliver button. */
export function DeliveryLog({ destinationId }: { destinationId: string }) {
  const attempts = useAttempts(destinationId);
  const redeliver = useRedeliver();
  if (attempts.isPending)
    return (
      <Center py="3">
        <Spinner size="sm" />
      </Center>
    );
  if (attempts.isError)
    return <Text color="fg.error">{messageOf(attempts.error, 'The delivery log could not be loaded.')}</Text>;
  if (attempts.data.attempts.length === 0) return <Text color="fg.muted">No deliveries yet.</Text>;
  const again = async (eventId: string) => {
    try {
      await redeliver.mutateAsync({ id: destinationId, eventId });
      notify({ title: 'Delivery queued', description: 'The event goes out again under its own id.' });
    } catch (error) {
      notify({ type: 'error', title: 'Error', description: messageOf(error, 'Could not redeliver the event.') });
    }
  };
  return (
    <Box overflowX="auto">
      <Table.Root size="sm" aria-label="Delivery log">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Time</Table.ColumnHeader>
            <Table.ColumnHeader>Event</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Latency</Table.ColumnHeader>
            <Table.ColumnHeader>Answer</Table.ColumnHeader>
            <Table.ColumnHeader />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {attempts.data.attempts.map((attempt) => {
            const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
            return (
              <Table.Row key={attempt.id}>
                <Table.Cell whiteSpace="nowrap">{new Date(attempt.at).toLocaleString()}</Table.Cell>
                <Table.Cell>{label(attempt.event)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={ok ? 'green' : 'red'}>{attempt.status ?? 'no answer'}</Badge>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{attempt.latencyMs} ms</Table.Cell>
                <Table.Cell maxW="xs">
                  <Text fontFamily="mono" fontSize="xs" lineClamp={2} wordBreak="break-all">
                    {attempt.error ?? attempt.answer}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  <Button size="xs" variant="outline" onClick={() => void again(attempt.eventId)}>
                    Redeliver
                  </Button>
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
