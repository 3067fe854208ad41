import { IconButton, Text } from '@chakra-ui/react';
import { ShieldOff } from 'lucide-react';
import { useState } from 'react';
import type { AdminUser } from '@moonrelay/contract/admin';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../../lib/api-client.ts';
import { notify } from '../../../../lib/toaster.tsx';
import { useResetTwoFactor } from '../../api/reset-two-factor.ts';

/**
 * Reset two-factor sign-in, after a confirmation: for a user who lost their authenticator app, their
 * recovery codes and their passkeys. Audited on the server under the admin's name.
 */
export function ResetTwoFactorButton({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const reset = useResetTwoFactor();

  const confirm = async () => {
    try {
      await reset.mutateAsync(user.id);
      setOpen(false);
      notify({ title: TWO_FACTOR.adminResetDone, description: `${user.name} (@${user.username})` });
    } catch (error) {
      // Nothing to reset is said as the server says it; the dialog closes, as there is nothing to retry.
      setOpen(false);
      notify({
        type: 'error',
        title: TWO_FACTOR.adminResetTitle,
        description: messageOf(error, 'Could not reset it.'),
      });
    }
  };

  return (
    <ConfirmDialog
      trigger={
        // Icon only: the row's actions already fill the table's width; the label names it to readers.
        <IconButton
          size="xs"
          variant="outline"
          aria-label={`${TWO_FACTOR.adminResetTitle} of ${user.name}`}
          title={TWO_FACTOR.adminResetTitle}
        >
          <ShieldOff />
        </IconButton>
      }
      open={open}
      onOpenChange={setOpen}
      title={TWO_FACTOR.adminResetTitle}
      confirmLabel="Reset"
      pendingLabel="Resetting..."
      pending={reset.isPending}
      onConfirm={() => void confirm()}
    >
      <Text>{TWO_FACTOR.adminResetConfirm(`${user.name} (@${user.username})`)}</Text>
    </ConfirmDialog>
  );
}
