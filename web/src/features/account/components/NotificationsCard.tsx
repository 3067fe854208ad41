import { Alert, Badge, Button, Card, Center, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { Bell, Plus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { NOTIFICATION_EVENT_LABELS, type NotificationDestination } from '@moonrelay/contract/notifications';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { noticeMark, notify, notifyDone } from '../../../lib/toaster.tsx';
import { useDeleteDestination, useDestinations, useSendTest, useUpdateDestination } from '../api/notifications.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';
import { AddDestinationForm } from './AddDestinationForm.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';

/** Tells (by a toast) of destinations that became paused since the list was last read. */
function usePausedToasts(destinations: NotificationDestination[] | undefined) {
  const seen = useRef<Map<string, boolean> | null>(null);
  useEffect(() => {
    if (!destinations) return;
    const before = seen.current;
    seen.current = new Map(destinations.map((d) => [d.id, d.pausedAt !== null]));
    if (!before) return;
    for (const d of destinations)
      if (d.pausedAt && before.get(d.id) === false)
        notify({ type: 'warning', title: `${d.name} paused`, description: d.pausedReason ?? 'Deliveries stopped.' });
  }, [destinations]);
}

function DestinationRow({ destination }: { destination: NotificationDestination }) {
  const [logOpen, setLogOpen] = useState(false);
  const sendTest = useSendTest();
  const update = useUpdateDestination();
  const remove = useDeleteDestination();
  const act = async (work: () => Promise<unknown>, done: string, failed: string) => {
    // A delivery can pause the destination while the click's request is still out (the list is
    // read again meanwhile): that warning stays on screen rather than the plain confirmation.
    const mark = noticeMark();
    try {
      await work();
      notifyDone(mark, { title: done });
    } catch (error) {
      notify({ type: 'error', title: 'Error', description: messageOf(error, failed) });
    }
  };
  return (
    <Stack gap="2" borderWidth="1px" borderRadius="md" p="3" data-testid="notification-destination">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Stack gap="0" minW="0">
          <HStack gap="2">
            <Text fontWeight="semibold">{destination.name}</Text>
            <Badge>{destination.kind === 'discord' ? 'Discord' : 'Webhook'}</Badge>
            {destination.pausedAt && <Badge colorPalette="orange">Paused</Badge>}
          </HStack>
          <Text fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
            {destination.maskedUrl}
          </Text>
        </Stack>
        <HStack gap="2" wrap="wrap">
          <Button
            size="sm"
            variant="outline"
            loading={sendTest.isPending}
            onClick={() =>
              void act(() => sendTest.mutateAsync(destination.id), 'Test event sent', 'Could not send a test.')
            }
          >
            Send test
          </Button>
          <Button size="sm" variant="outline" onClick={() => setLogOpen(!logOpen)} aria-expanded={logOpen}>
            {logOpen ? 'Hide log' : 'Delivery log'}
          </Button>
          {destination.pausedAt && (
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                void act(
                  () => update.mutateAsync({ id: destination.id, paused: false }),
                  'Destination resumed',
                  'Could not resume it.',
                )
              }
            >
              Resume
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            colorPalette="red"
            onClick={() => {
              // The log stops reading first: a read after the delete would only find it gone.
              setLogOpen(false);
              void act(() => remove.mutateAsync(destination.id), 'Destination deleted', 'Could not delete it.');
            }}
          >
            Delete
          </Button>
        </HStack>
      </HStack>
      {destination.pausedAt && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Title>Paused: {destination.pausedReason}</Alert.Title>
        </Alert.Root>
      )}
      <Text fontSize="sm" color="fg.muted">
        {destination.events.map((event) => NOTIFICATION_EVENT_LABELS[event]).join(' · ')}
      </Text>
      {logOpen && <DeliveryLog destinationId={destination.id} />}
    </Stack>
  );
}

/**
 * Settings → Notifications: where Moonrelay tells what happens in your games (Discord webhooks and
 * signed HTTPS webhooks), with a test button and each destination's delivery log. On a team whose
 * role for the member does not include notifications.manage, nothing is asked for (the list is
 * read every few seconds) and the card says which permission it needs, with no action.
 */
export function NotificationsCard() {
  const manage = useCan('notifications.manage');
  const destinations = useDestinations(manage.allowed);
  const [adding, setAdding] = useState(false);
  usePausedToasts(destinations.data?.destinations);
  return (
    <Card.Root id="notifications">
      <Card.Header>
        <Card.Title>
          <HStack gap="2">
            <Bell size="18" /> Notifications
          </HStack>
        </Card.Title>
        <Card.Description>
          Hear about disconnected servers, failed runs and new sign-ins in Discord or at your own HTTPS endpoint.
          {destinations.data ? ` Up to ${destinations.data.limit} destinations.` : ''}
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          {!manage.allowed ? (
            <PermissionNotes notes={[{ action: TEAM_SETTINGS_TEXT.notifications, can: manage }]} />
          ) : destinations.isPending ? (
            <Center py="4">
              <Spinner />
            </Center>
          ) : destinations.isError ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(destinations.error, 'Your destinations could not be loaded.')}</Alert.Title>
            </Alert.Root>
          ) : destinations.data.destinations.length === 0 && !adding ? (
            <Text color="fg.muted">No destinations yet.</Text>
          ) : (
            destinations.data.destinations.map((destination) => (
              <DestinationRow key={destination.id} destination={destination} />
            ))
          )}
          {adding && <AddDestinationForm onDone={() => setAdding(false)} />}
        </Stack>
      </Card.Body>
      {!adding && manage.allowed && (
        <Card.Footer>
          <Button variant="outline" onClick={() => setAdding(true)}>
            <Plus /> Add destination
          </Button>
        </Card.Footer>
      )}
    </Card.Root>
  );
}
