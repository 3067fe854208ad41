import { Button, Card, HStack, Text } from '@chakra-ui/react';
import { CodeValue } from '../../../components/CodeValue.tsx';
import { RefreshCw } from 'lucide-react';
import { useSession } from '../../../lib/session.ts';
import { useCurrentUser } from '../api/current-user.ts';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { useCan } from '../../../lib/team-access.ts';
import { useTeam } from '../../../lib/team.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';
import { RegenerateKeyDialog } from './RegenerateKeyDialog.tsx';

/**
 * The dashboard's API key card: the full key, copy and regenerate (which on a team asks keys.manage:
 * disabled, saying so, for a member whose role does not include it).
 */
export function ApiAccessCard() {
  const { data } = useCurrentUser();
  const regenerate = useCan('keys.manage');
  const storedUser = useSession((state) => state.user);
  // The stored user answers until the fetch does, so the key shows without a loading flash.
  const apiKey = (data ?? storedUser)?.apiKey ?? null;
  // On a team the person's own key is not the team's: it is not shown as if it were.
  const onTeam = useTeam((state) => state.teamId) !== null;
  return (
    <Card.Root>
      <Card.Header>
        {/* The first section under the page heading: h2, not the card default h3 (no level skipped). */}
        <Card.Title as="h2">API Access</Card.Title>
        <Card.Description>
          {onTeam
            ? TEAM_SETTINGS_TEXT.teamKeyDescription
            : 'Your game client and API calls use this key to act on your account. Keep it secret.'}
        </Card.Description>
      </Card.Header>
      <Card.Body gap="2">
        <HStack gap="2">
          {onTeam ? (
            <Text color="fg.muted" flex="1">
              {TEAM_SETTINGS_TEXT.teamKeyWhere}
            </Text>
          ) : (
            <CodeValue value={apiKey} placeholder="No API key available" />
          )}
          {apiKey && !onTeam && <CopyButton value={apiKey} label="Copy API key" copiedTitle="API Key Copied" />}
          <RegenerateKeyDialog
            trigger={
              <Button variant="outline" disabled={!regenerate.allowed} title={regenerate.reason}>
                <RefreshCw /> Regenerate
              </Button>
            }
          />
        </HStack>
        <PermissionNotes notes={[{ action: TEAM_SETTINGS_TEXT.regenerateKey, can: regenerate }]} />
      </Card.Body>
    </Card.Root>
  );
}
