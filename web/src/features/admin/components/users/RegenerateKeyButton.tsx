import { Button, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { AdminUser } from '@moonrelay/contract/admin';
import { ADMIN_KEY_REVEAL_TOAST_MS } from '@moonrelay/contract/constants';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.tsx';
import { notify } from '../../../../lib/toaster.tsx';
import { useRegenerateUserKey } from '../../api/regenerate-key.ts';
import { ADMIN_TOASTS } from '../../admin-text.ts';

/**
 * Regenerate Key, after a confirmation: the user's old key stops working at once. The new key is
 * shown in a toast that stays 10 s (spec section 9) so the admin can pass it on.
 */
export function RegenerateKeyButton({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const regenerate = useRegenerateUserKey();

  const confirm = async () => {
    try {
      const { newApiKey } = await regenerate.mutateAsync(user.id);
      setOpen(false);
      notify({ ...ADMIN_TOASTS.keyRegenerated(user.name, newApiKey), duration: ADMIN_KEY_REVEAL_TOAST_MS });
    } catch {
      // The dialog stays open so the admin can try again or cancel.
      notify({ type: 'error', ...ADMIN_TOASTS.keyFailed });
    }
  };

  return (
    <ConfirmDialog
      trigger={
        <Button size="xs" variant="outline" aria-label={`Regenerate Key of ${user.name}`}>
          <RefreshCw /> Regenerate Key
        </Button>
      }
      open={open}
      onOpenChange={setOpen}
      title="Regenerate API Key"
      confirmLabel="Regenerate"
      pendingLabel="Regenerating..."
      pending={regenerate.isPending}
      onConfirm={() => void confirm()}
    >
      <Text>
        The API key of {user.name} (@{user.username}) will stop working immediately. Their game integrations must be
        updated with the new key, which you will see once.
      </Text>
    </ConfirmDialog>
  );
}
