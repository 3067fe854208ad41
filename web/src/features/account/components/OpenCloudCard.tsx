import { Alert, Button, Card, Center, Field, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { Gavel } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { OpenCloudKey } from '@moonrelay/contract/open-cloud';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useOpenCloudKey, useRemoveOpenCloudKey, useSaveOpenCloudKey } from '../api/open-cloud.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';

/** The universe id and API key, checked with Roblox when saved (a key Roblox refuses is not kept). */
function KeyForm({ current, onDone }: { current: OpenCloudKey | null; onDone?: () => void }) {
  const [universeId, setUniverseId] = useState(current?.universeId ?? '');
  const [apiKey, setApiKey] = useState('');
  const save = useSaveOpenCloudKey();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { universeId: universeId.trim(), apiKey },
      {
        onSuccess: () => {
          setApiKey('');
          notify({ title: 'Open Cloud key saved', description: 'Roblox accepted it. Your bans are being imported.' });
          onDone?.();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Open Cloud key">
      <Stack gap="4">
        <Field.Root required>
          <Field.Label>Universe ID</Field.Label>
          <Input
            value={universeId}
            onChange={(event) => setUniverseId(event.target.value)}
            inputMode="numeric"
            fontFamily="mono"
            placeholder="5795192361"
          />
          <Field.HelperText>Creator Hub → your experience → the universe id on its overview.</Field.HelperText>
        </Field.Root>
        <Field.Root required>
          <Field.Label>Open Cloud API key</Field.Label>
          <Input
            type="password"
            autoComplete="off"
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            fontFamily="mono"
          />
          <Field.HelperText>
            Creator Hub → Open Cloud → API Keys: the user-restriction API with universe.user-restriction:read and :write
            for this universe. It is stored encrypted and shown masked.
          </Field.HelperText>
        </Field.Root>
        {save.isError && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{messageOf(save.error, 'Could not save the key.')}</Alert.Title>
          </Alert.Root>
        )}
        <HStack gap="2">
          <Button type="submit" loading={save.isPending} loadingText="Checking with Roblox...">
            {current ? 'Replace key' : 'Save key'}
          </Button>
          {onDone && (
            <Button variant="outline" onClick={onDone} disabled={save.isPending}>
              Cancel
            </Button>
          )}
        </HStack>
      </Stack>
    </form>
  );
}

/**
 * Settings → Roblox Open Cloud: the key with which Moonrelay bans players with no game server
 * running and imports the bans made in Creator Hub or elsewhere. On a team whose role for the member
 * does not include opencloud.manage, the key is not asked for and the card says which permission it
 * needs, with no action.
 */
export function OpenCloudCard() {
  const manage = useCan('opencloud.manage');
  const status = useOpenCloudKey(manage.allowed);
  const remove = useRemoveOpenCloudKey();
  const [replacing, setReplacing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const confirmRemove = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      notify({ type: 'error', title: 'Error', description: messageOf(error, 'Could not remove the key.') });
      return;
    }
    setConfirming(false);
    notify({ title: 'Open Cloud key removed' });
  };

  let body;
  if (!manage.allowed) {
    body = <PermissionNotes notes={[{ action: TEAM_SETTINGS_TEXT.openCloud, can: manage }]} />;
  } else if (status.isPending) {
    body = (
      <Center py="4">
        <Spinner />
      </Center>
    );
  } else if (status.isError) {
    body = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(status.error, 'Your Open Cloud key could not be loaded.')}</Alert.Title>
      </Alert.Root>
    );
  } else if (!status.data.key) {
    body = <KeyForm current={null} />;
  } else {
    const key = status.data.key;
    body = (
      <Stack gap="3">
        <Stack gap="1" data-testid="open-cloud-key">
          <Text>
            Universe{' '}
            <Text as="span" fontFamily="mono">
              {key.universeId}
            </Text>
            , key{' '}
            <Text as="span" fontFamily="mono">
              {key.maskedKey}
            </Text>
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {key.lastImportAt
              ? `Bans last imported ${new Date(key.lastImportAt).toLocaleString()}.`
              : 'Bans not imported yet.'}
          </Text>
          {key.lastImportError && (
            <Alert.Root status="warning" size="sm">
              <Alert.Indicator />
              <Alert.Title>Import failed: {key.lastImportError}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
        {replacing ? (
          <KeyForm current={key} onDone={() => setReplacing(false)} />
        ) : (
          <HStack gap="2">
            <Button variant="outline" onClick={() => setReplacing(true)}>
              Replace
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" colorPalette="red">
                  Remove
                </Button>
              }
              open={confirming}
              onOpenChange={setConfirming}
              title="Remove Open Cloud key"
              confirmLabel="Remove"
              pendingLabel="Removing..."
              pending={remove.isPending}
              onConfirm={() => void confirmRemove()}
            >
              <Text>
                Moonrelay will no longer ban players through Roblox without a game server, and bans still waiting to be
                sent will fail. Imported bans stay.
              </Text>
            </ConfirmDialog>
          </HStack>
        )}
      </Stack>
    );
  }

  return (
    <Card.Root id="open-cloud">
      <Card.Header>
        <Card.Title as="h2">
          <HStack gap="2">
            <Gavel size="18" /> Roblox Open Cloud
          </HStack>
        </Card.Title>
        <Card.Description>
          Ban players with no game server running, and see bans made in Creator Hub or by other tools.
        </Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}
