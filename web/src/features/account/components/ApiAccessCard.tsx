import { Button, Card, HStack } from '@chakra-ui/react';
import { CodeValue } from '../../../components/CodeValue.tsx';
import { RefreshCw } from 'lucide-react';
import { useSession } from '../../../lib/session.ts';
import { useCurrentUser } from '../api/current-user.ts';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { RegenerateKeyDialog } from './RegenerateKeyDialog.tsx';

/** The dashboard's API key card: the full key, copy and regenerate. */
export function ApiAccessCard() {
  const { data } = useCurrentUser();
  const storedUser = useSession((state) => state.user);
  // The stored user answers until the fetch does, so the key shows without a loading flash.
  const apiKey = (data ?? storedUser)?.apiKey ?? null;
  return (
    <Card.Root>
      <Card.Header>
        {/* The first section under the page heading: h2, not the card default h3 (no level skipped). */}
        <Card.Title as="h2">API Access</Card.Title>
        <Card.Description>
          Your game client and API calls use this key to act on your account. Keep it secret.
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <HStack gap="2">
          <CodeValue value={apiKey} placeholder="No API key available" />
          {apiKey && <CopyButton value={apiKey} label="Copy API key" copiedTitle="API Key Copied" />}
          <RegenerateKeyDialog
            trigger={
              <Button variant="outline">
                <RefreshCw /> Regenerate
              </Button>
            }
          />
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
