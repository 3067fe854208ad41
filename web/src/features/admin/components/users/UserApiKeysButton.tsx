import { Alert, Button, Center, CloseButton, Dialog, Portal, Spinner } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { AdminUser } from '@moonrelay/contract/admin';
import type { ApiKeySummary } from '@moonrelay/contract/api-keys';
import { ApiKeyList } from '../../../../components/api-keys/ApiKeyList.tsx';
import { messageOf } from '../../../../lib/api-client.ts';
import { notify } from '../../../../lib/toaster.tsx';
import { useRevokeUserApiKey, useUserApiKeys } from '../../api/user-api-keys.ts';

/** A user's scoped API keys, in a dialog: what each may do and when it was last used, and Revoke (audited). */
export function UserApiKeysButton({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const keys = useUserApiKeys(user.id, open);
  const revoke = useRevokeUserApiKey(user.id);
  const onRevoke = async (key: ApiKeySummary) => {
    try {
      await revoke.mutateAsync(key.id);
    } catch (error) {
      notify({ type: 'error', title: 'Failed', description: messageOf(error, 'Could not revoke the API key.') });
      throw error;
    }
    notify({ title: 'API Key Revoked', description: `${key.name} of ${user.name} no longer works.` });
  };
  return (
    <Dialog.Root open={open} onOpenChange={(event) => setOpen(event.open)} size="lg" scrollBehavior="inside">
      <Dialog.Trigger asChild>
        <Button size="xs" variant="outline" aria-label={`API keys of ${user.name}`}>
          <KeyRound /> Keys
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                API keys of {user.name} (@{user.username})
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {keys.isPending ? (
                <Center py="6">
                  <Spinner />
                </Center>
              ) : keys.isError ? (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{messageOf(keys.error, 'The API keys could not be loaded.')}</Alert.Title>
                </Alert.Root>
              ) : (
                <ApiKeyList keys={keys.data.items} onRevoke={onRevoke} owner={user.name} />
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
