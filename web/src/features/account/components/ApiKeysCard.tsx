import { Alert, Card, Center, Spinner, Stack } from '@chakra-ui/react';
import type { ApiKeySummary } from '@moonrelay/contract/api-keys';
import { ApiKeyList } from '../../../components/api-keys/ApiKeyList.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useApiKeys, useRevokeApiKey } from '../api/api-keys.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.tsx';

/**
 * Settings' scoped API keys, beside the personal key: keys that can do only what their scopes say,
 * for a game, a CI job or a collaborator. Each is listed masked and revoked on its own. On a team
 * whose role for the member does not include keys.manage, the keys are not asked for and the card
 * says which permission it needs, with no action.
 */
export function ApiKeysCard() {
  const manage = useCan('keys.manage');
  const keys = useApiKeys(manage.allowed);
  const revoke = useRevokeApiKey();
  const onRevoke = async (key: ApiKeySummary) => {
    try {
      await revoke.mutateAsync(key.id);
    } catch (error) {
      notify({ type: 'error', title: 'Error', description: messageOf(error, 'Could not revoke the API key.') });
      throw error;
    }
    notify({ title: 'API Key Revoked', description: `${key.name} no longer works.` });
  };
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">API keys</Card.Title>
        <Card.Description>
          Keys that can do only what you allow: give a game, a script or a tool its own key, and revoke it alone.
          {keys.data ? ` Up to ${keys.data.limit}.` : ''}
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {!manage.allowed ? (
            <PermissionNotes notes={[{ action: TEAM_SETTINGS_TEXT.apiKeys, can: manage }]} />
          ) : keys.isPending ? (
            <Center py="4">
              <Spinner />
            </Center>
          ) : keys.isError ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(keys.error, 'Your API keys could not be loaded.')}</Alert.Title>
            </Alert.Root>
          ) : (
            <ApiKeyList keys={keys.data.items} onRevoke={onRevoke} />
          )}
        </Stack>
      </Card.Body>
      {manage.allowed && (
        <Card.Footer>
          <CreateApiKeyDialog />
        </Card.Footer>
      )}
    </Card.Root>
  );
}
