import {
  Alert,
  Button,
  Checkbox,
  CloseButton,
  Dialog,
  Field,
  Input,
  NativeSelect,
  Portal,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  API_KEY_SCOPE_DESCRIPTIONS,
  API_KEY_SCOPES,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@moonrelay/contract/api-keys';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCreateApiKey } from '../api/api-keys.ts';

/** How long a new key lasts; the server takes any time up to three years, the form offers these. */
const EXPIRY_CHOICES = [
  { label: 'Never', days: 0 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
] as const;

/** Addresses as typed: one per line, or separated by commas or spaces. */
const addressesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * Creates a scoped key: a name, its scopes, an optional expiry and IP allow list. The new key is
 * then shown once, with a copy button: it cannot be shown again.
 */
export function CreateApiKeyDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['game']);
  const [days, setDays] = useState('0');
  const [addresses, setAddresses] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useCreateApiKey();

  const reset = () => {
    setName('');
    setScopes(['game']);
    setDays('0');
    setAddresses('');
    setCreated(null);
    create.reset();
  };
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ips = addressesOf(addresses);
    create.mutate(
      {
        name,
        scopes: API_KEY_SCOPES.filter((scope) => scopes.includes(scope)),
        expiresAt: Number(days) > 0 ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : null,
        allowedIps: ips.length > 0 ? ips : null,
      },
      { onSuccess: setCreated },
    );
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        setOpen(event.open);
        if (!event.open) reset();
      }}
      closeOnInteractOutside={!created}
    >
      <Dialog.Trigger asChild>
        <Button variant="outline">
          <Plus /> Create API key
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{created ? 'API key created' : 'Create API key'}</Dialog.Title>
            </Dialog.Header>
            {created ? (
              <>
                <Dialog.Body>
                  <Stack gap="3">
                    <Text>
                      Copy <strong>{created.name}</strong> now: it is shown this once and cannot be shown again.
                    </Text>
                    <Stack direction="row" gap="2">
                      <Input readOnly aria-label="New API key" fontFamily="mono" value={created.key} />
                      <CopyButton value={created.key} label="Copy new API key" copiedTitle="API Key Copied" />
                    </Stack>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button>Done</Button>
                  </Dialog.ActionTrigger>
                </Dialog.Footer>
              </>
            ) : (
              <form onSubmit={submit} noValidate>
                <Dialog.Body>
                  <Stack gap="4">
                    <Field.Root required>
                      <Field.Label>Name</Field.Label>
                      <Input value={name} onChange={(event) => setName(event.target.value)} placeholder="CI deploy" />
                    </Field.Root>
                    <Stack as="fieldset" gap="2">
                      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
                        What it may do
                      </Text>
                      {API_KEY_SCOPES.map((scope) => (
                        <Checkbox.Root
                          key={scope}
                          alignItems="start"
                          checked={scopes.includes(scope)}
                          onCheckedChange={(event) => toggle(scope, event.checked === true)}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control mt="0.5" />
                          <Checkbox.Label>
                            <Text as="span" fontFamily="mono" fontWeight="semibold">
                              {scope}
                            </Text>
                            <Text as="span" display="block" fontWeight="normal" color="fg.muted" fontSize="sm">
                              {API_KEY_SCOPE_DESCRIPTIONS[scope]}
                            </Text>
                          </Checkbox.Label>
                        </Checkbox.Root>
                      ))}
                    </Stack>
                    <Field.Root>
                      <Field.Label>Expires after</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field value={days} onChange={(event) => setDays(event.target.value)}>
                          {EXPIRY_CHOICES.map((choice) => (
                            <option key={choice.days} value={choice.days}>
                              {choice.label}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                    <Field.Root>
                      <Field.Label>Only from these addresses (optional)</Field.Label>
                      <Textarea
                        value={addresses}
                        onChange={(event) => setAddresses(event.target.value)}
                        placeholder={'203.0.113.7\n198.51.100.0/24'}
                        rows={2}
                        fontFamily="mono"
                      />
                      <Field.HelperText>
                        IP addresses or CIDR ranges, one per line. Empty: from anywhere.
                      </Field.HelperText>
                    </Field.Root>
                    {create.isError && (
                      <Alert.Root status="error">
                        <Alert.Indicator />
                        <Alert.Title>{messageOf(create.error, 'Could not create the API key.')}</Alert.Title>
                      </Alert.Root>
                    )}
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={create.isPending}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button type="submit" loading={create.isPending} loadingText="Creating...">
                    Create key
                  </Button>
                </Dialog.Footer>
              </form>
            )}
            <Dialog.CloseTrigger asChild disabled={create.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
