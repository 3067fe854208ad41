import { Alert, Button, Checkbox, Field, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import {
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type CreatedNotificationDestination,
  type NotificationDestinationKind,
  type NotificationEvent,
} from '@moonrelay/contract/notifications';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCreateDestination } from '../api/notifications.ts';

/**
 * Adds a destination: a Discord webhook URL, or an HTTPS URL whose deliveries are signed with a
 * secret Moonrelay makes (shown once, with a copy button), and the events it hears about.
 */
export function AddDestinationForm({ onDone }: { onDone: () => void }) {
  const [kind, setKind] = useState<NotificationDestinationKind>('discord');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<NotificationEvent[]>(['server.disconnected', 'run.failed', 'schedule.failed']);
  const [created, setCreated] = useState<CreatedNotificationDestination | null>(null);
  const create = useCreateDestination();

  const toggle = (event: NotificationEvent, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { kind, name, url, events: NOTIFICATION_EVENTS.filter((e) => events.includes(e)) },
      { onSuccess: (answer) => (answer.secret ? setCreated(answer) : onDone()) },
    );
  };

  if (created?.secret)
    return (
      <Stack gap="3">
        <Text>
          Deliveries to <strong>{created.name}</strong> are signed with this secret (Moonrelay-Signature). Copy it now:
          it is shown this once.
        </Text>
        <Stack direction="row" gap="2">
          <Input readOnly aria-label="Signing secret" fontFamily="mono" value={created.secret} />
          <CopyButton value={created.secret} label="Copy signing secret" copiedTitle="Secret Copied" />
        </Stack>
        <Button alignSelf="start" onClick={onDone}>
          Done
        </Button>
      </Stack>
    );

  return (
    <form onSubmit={submit} noValidate aria-label="Add destination">
      <Stack gap="4">
        <Field.Root>
          <Field.Label>Kind</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="Kind"
              value={kind}
              onChange={(event) => setKind(event.target.value as NotificationDestinationKind)}
            >
              <option value="discord">Discord webhook</option>
              <option value="webhook">HTTPS webhook (signed)</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root required>
          <Field.Label>Name</Field.Label>
          <Input value={name} onChange={(event) => setName(event.target.value)} placeholder="Ops channel" />
        </Field.Root>
        <Field.Root required>
          <Field.Label>URL</Field.Label>
          <Input
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            fontFamily="mono"
            placeholder={
              kind === 'discord' ? 'https://discord.com/api/webhooks/…' : 'https://hooks.example.com/moonrelay'
            }
          />
          <Field.HelperText>
            {kind === 'discord'
              ? 'In Discord: Server Settings, Integrations, Webhooks, Copy Webhook URL. It is stored encrypted and shown masked.'
              : 'Each delivery carries Moonrelay-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.body">.'}
          </Field.HelperText>
        </Field.Root>
        <Stack as="fieldset" gap="2">
          <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
            Events
          </Text>
          {NOTIFICATION_EVENTS.map((event) => (
            <Checkbox.Root
              key={event}
              checked={events.includes(event)}
              onCheckedChange={(change) => toggle(event, change.checked === true)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{NOTIFICATION_EVENT_LABELS[event]}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Stack>
        {create.isError && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{messageOf(create.error, 'Could not add the destination.')}</Alert.Title>
          </Alert.Root>
        )}
        <Stack direction="row" gap="2">
          <Button type="submit" loading={create.isPending} loadingText="Adding...">
            Add destination
          </Button>
          <Button variant="outline" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
