import {
  Alert,
  Button,
  Card,
  Center,
  Field,
  Heading,
  HStack,
  Input,
  Separator,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Gavel } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import type { OpenCloudKey } from '@moonrelay/contract/open-cloud';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { LUAU_WRITE_SCOPE } from '../../../lib/cloud-run.ts';
import { useOpenCloudKey, useRemoveOpenCloudKey, useSaveCloudPlace, useSaveOpenCloudKey } from '../api/open-cloud.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';

/** The scopes of Roblox's user-restriction API, with which the key bans and imports bans. */
const BAN_SCOPE_PREFIX = 'universe.user-restriction:';
/** Whether the key may carry bans: unknown scopes (null) are tried, as the server does. */
const mayBan = (scopes: string[] | null) =>
  scopes === null || scopes.some((scope) => scope.startsWith(BAN_SCOPE_PREFIX));
const CLOUD_ONLY_TEXT =
  'This key is for cloud runs only: bans need the user-restriction API (universe.user-restriction:read and :write).';

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
        onSuccess: (saved) => {
          setApiKey('');
          notify({
            title: 'Open Cloud key saved',
            description: mayBan(saved.scopes)
              ? 'Roblox accepted it. Your bans are being imported.'
              : `Roblox accepted it. ${CLOUD_ONLY_TEXT}`,
          });
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
            Creator Hub → Open Cloud → API Keys, for this universe: the user-restriction API with
            universe.user-restriction:read and :write for bans, and the Luau Execution API with {LUAU_WRITE_SCOPE} for
            cloud runs. It is stored encrypted and shown masked.
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

/** What the saved key may do for cloud runs, as Roblox's key introspection named its scopes. */
function CloudScopeStatus({ scopes }: { scopes: string[] | null }) {
  if (scopes === null) {
    return (
      <Alert.Root status="info" size="sm" data-testid="cloud-scope">
        <Alert.Indicator />
        <Alert.Title>
          Roblox did not say whether this key may run code; a cloud run checks it when it starts.
        </Alert.Title>
      </Alert.Root>
    );
  }
  if (scopes.includes(LUAU_WRITE_SCOPE)) {
    return (
      <Alert.Root status="success" size="sm" data-testid="cloud-scope">
        <Alert.Indicator />
        <Alert.Title>This key may run code in Roblox ({LUAU_WRITE_SCOPE}).</Alert.Title>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status="warning" size="sm" data-testid="cloud-scope">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>This key may not run code in Roblox.</Alert.Title>
        <Alert.Description>
          Add the Luau Execution API with {LUAU_WRITE_SCOPE} to it in Creator Hub → Open Cloud → API Keys, then replace
          the key here.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * The place cloud runs use (a place of the key's universe) and, optionally, a version of it to pin:
 * empty runs the place's newest published version. Saved alone (PUT /api/open-cloud/place).
 */
function CloudPlaceForm({ current }: { current: OpenCloudKey }) {
  const [placeId, setPlaceId] = useState(current.placeId ?? '');
  const [placeVersion, setPlaceVersion] = useState(current.placeVersion ?? '');
  const save = useSaveCloudPlace();
  const versionHelpId = useId();
  const unchanged = placeId.trim() === (current.placeId ?? '') && placeVersion.trim() === (current.placeVersion ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An id pasted with spaces around it still saves; an empty version unpins it.
    const version = placeVersion.trim();
    save.mutate(
      { placeId: placeId.trim(), placeVersion: version === '' ? null : version },
      {
        onSuccess: (key) =>
          notify({
            title: 'Place saved',
            description: `Cloud runs use place ${key.placeId}${key.placeVersion ? `, version ${key.placeVersion}` : ', its newest version'}.`,
          }),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Cloud run place">
      <Stack gap="3">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" align="flex-start">
          <Field.Root required flex="2">
            <Field.Label>Place ID</Field.Label>
            <Input
              value={placeId}
              onChange={(event) => setPlaceId(event.target.value)}
              inputMode="numeric"
              fontFamily="mono"
              placeholder="4200000002"
            />
            <Field.HelperText>
              Creator Hub → your experience → Places: the place&apos;s id (also in its URL on roblox.com/games/…).
            </Field.HelperText>
          </Field.Root>
          <Field.Root flex="1">
            <Field.Label>Pinned version (optional)</Field.Label>
            <Input
              value={placeVersion}
              onChange={(event) => setPlaceVersion(event.target.value)}
              inputMode="numeric"
              fontFamily="mono"
              placeholder="Newest"
              aria-describedby={versionHelpId}
            />
            <Field.HelperText id={versionHelpId}>Empty: the newest published version.</Field.HelperText>
          </Field.Root>
        </Stack>
        {save.isError && (
          <Alert.Root status="error" size="sm">
            <Alert.Indicator />
            <Alert.Title>{messageOf(save.error, 'Could not save the place.')}</Alert.Title>
          </Alert.Root>
        )}
        <HStack>
          <Button type="submit" variant="outline" loading={save.isPending} loadingText="Saving..." disabled={unchanged}>
            Save place
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

/**
 * Cloud runs: Roblox runs the editor's code on a fresh copy of the place, with the game's real
 * DataStores. What the key may do, and the place it runs on.
 */
function CloudRunsSection({ current }: { current: OpenCloudKey }) {
  const headingId = useId();
  return (
    <Stack as="section" gap="3" aria-labelledby={headingId} data-testid="cloud-runs-settings">
      <Stack gap="1">
        <Heading as="h3" size="sm" id={headingId}>
          Cloud runs
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Run in Roblox (in the Script Editor and on schedules) runs your code on a fresh copy of this place in Roblox
          itself, with your game&apos;s real DataStores and no players.
        </Text>
        <Text fontSize="sm" data-testid="cloud-place-current">
          {current.placeId ? (
            <>
              Runs on place{' '}
              <Text as="span" fontFamily="mono">
                {current.placeId}
              </Text>
              {current.placeVersion ? `, version ${current.placeVersion}` : ', its newest version'}.
            </>
          ) : (
            'No place set yet: cloud runs need one.'
          )}
        </Text>
      </Stack>
      <CloudScopeStatus scopes={current.scopes} />
      <CloudPlaceForm key={`${current.placeId}/${current.placeVersion}`} current={current} />
    </Stack>
  );
}

/**
 * Settings → Roblox Open Cloud: the key with which Moonrelay bans players with no game server
 * running and imports the bans made in Creator Hub or elsewhere, and runs code in Roblox itself on
 * the place set here (cloud runs). On a team whose role for the member does not include
 * opencloud.manage, the key is not asked for and the card says which permission it needs, with no
 * action.
 */
export function OpenCloudCard() {
  const manage = useCan('opencloud.manage');
  const status = useOpenCloudKey(manage.allowed);
  const remove = useRemoveOpenCloudKey();
  const [replacing, setReplacing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The editor's Run in Roblox links here (/settings#open-cloud): the card comes into view once
  // it has loaded, which the browser's own jump to the anchor happened too early to find.
  const { hash } = useLocation();
  const loaded = !status.isPending;
  useEffect(() => {
    if (hash === '#open-cloud' && loaded) document.getElementById('open-cloud')?.scrollIntoView?.({ block: 'start' });
  }, [hash, loaded]);

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
          <Text fontSize="sm" color="fg.muted" data-testid="open-cloud-bans">
            {!mayBan(key.scopes)
              ? // Roblox said what the key may do, and bans are not part of it: none will be imported.
                CLOUD_ONLY_TEXT
              : key.lastImportAt
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
                sent will fail. Cloud runs can no longer start. Imported bans stay.
              </Text>
            </ConfirmDialog>
          </HStack>
        )}
        <Separator />
        <CloudRunsSection current={key} />
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
          Ban players with no game server running, see bans made in Creator Hub or by other tools, and run code in
          Roblox itself (cloud runs).
        </Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}
