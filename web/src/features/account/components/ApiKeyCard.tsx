import { Button, Card, HStack, IconButton, Input, Text } from '@chakra-ui/react';
import { Eye, EyeOff, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { maskApiKey } from '../../../lib/format.ts';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { useCan } from '../../../lib/team-access.ts';
import { useTeam } from '../../../lib/team.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';
import { RegenerateKeyDialog } from './RegenerateKeyDialog.tsx';

/**
 * Settings' API key: masked until revealed, with copy and regenerate. Regenerating on a team asks
 * keys.manage: disabled, saying so, for a member whose role does not include it.
 */
export function ApiKeyCard({ apiKey }: { apiKey: string | null }) {
  const [revealed, setRevealed] = useState(false);
  const regenerate = useCan('keys.manage');
  // On a team the person's own key is not the team's: it is not shown as if it were.
  const onTeam = useTeam((state) => state.teamId) !== null;
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">API Key</Card.Title>
        <Card.Description>
          {onTeam
            ? TEAM_SETTINGS_TEXT.teamKeyDescription
            : 'Your game and API calls authenticate with this key. Keep it secret.'}
        </Card.Description>
      </Card.Header>
      <Card.Body>
        {onTeam ? (
          <Text color="fg.muted">{TEAM_SETTINGS_TEXT.teamKeyWhere}</Text>
        ) : apiKey ? (
          <HStack gap="2">
            <Input readOnly aria-label="API key" fontFamily="mono" value={revealed ? apiKey : maskApiKey(apiKey)} />
            <IconButton
              aria-label={revealed ? 'Hide' : 'Show'}
              variant="outline"
              onClick={() => setRevealed((current) => !current)}
            >
              {revealed ? <EyeOff /> : <Eye />}
            </IconButton>
            <CopyButton value={apiKey} label="Copy API key" copiedTitle="API Key Copied" />
          </HStack>
        ) : (
          <Text color="fg.muted">No API key available</Text>
        )}
      </Card.Body>
      <Card.Footer flexDirection="column" alignItems="flex-start" gap="2">
        <RegenerateKeyDialog
          trigger={
            <Button variant="outline" colorPalette="red" disabled={!regenerate.allowed} title={regenerate.reason}>
              <RefreshCw /> Regenerate API Key
            </Button>
          }
        />
        <PermissionNotes notes={[{ action: TEAM_SETTINGS_TEXT.regenerateKey, can: regenerate }]} />
      </Card.Footer>
    </Card.Root>
  );
}
