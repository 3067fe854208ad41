import { Button, Card, Field, Stack, Textarea } from '@chakra-ui/react';
import { Play } from 'lucide-react';
import { useState } from 'react';
import type { BatchUser } from '../../live/admin-live-store.ts';
import { notify } from '../../../../lib/toaster.tsx';
import { ADMIN_TOASTS } from '../../admin-text.ts';
import { useStartBatch } from './useStartBatch.ts';

/**
 * A Lua script run on every selected user's game. Without a selected user, or with a blank script,
 * it says so in a toast and sends nothing (spec section 5).
 */
export function ScriptForm({ users }: { users: BatchUser[] }) {
  const [code, setCode] = useState('');
  const { startBatch, isStarting } = useStartBatch();

  const execute = async () => {
    if (users.length === 0) {
      notify({ type: 'error', ...ADMIN_TOASTS.noUsersSelected });
      return;
    }
    if (!code.trim()) {
      notify({ type: 'error', ...ADMIN_TOASTS.noScript });
      return;
    }
    await startBatch(users, 'script', { code }, { sent: ADMIN_TOASTS.scriptSent, failed: ADMIN_TOASTS.scriptFailed });
  };

  return (
    <Card.Root size="sm" role="region" aria-label="Execute Script">
      <Card.Header>
        <Card.Title as="h2">Execute Script</Card.Title>
        <Card.Description>Run Lua code in the game of every selected user.</Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          <Field.Root>
            <Field.Label>Lua script</Field.Label>
            <Textarea
              aria-label="Lua script"
              fontFamily="mono"
              size="sm"
              rows={6}
              spellCheck={false}
              placeholder={'print("Hello from the admin panel")'}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </Field.Root>
          <Button colorPalette="purple" alignSelf="flex-start" loading={isStarting} onClick={() => void execute()}>
            <Play /> Execute on Selected Users
          </Button>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
