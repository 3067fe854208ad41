import { Alert, Box, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { ArrowRight, Pencil, Play } from 'lucide-react';
import { Link } from 'react-router-dom';
import { RECENT_SCRIPTS_ON_DASHBOARD } from '@moonrelay/contract/constants';
import type { Script } from '@moonrelay/contract/scripts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import type { Can } from '../../../lib/team-access.ts';
import { useScripts } from '../api/scripts.ts';
import { ActionIconButton } from './ActionIconButton.tsx';
import { LastModified } from './LastModified.tsx';
import { useScriptListCan } from './script-actions.tsx';
import { SCRIPT_LIST_ACTIONS } from './script-list-text.ts';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { useRunScript } from './useRunScript.ts';

/**
 * The dashboard's Recent Scripts card: the newest-updated scripts (the list arrives in that order).
 * Where the member's role may not read scripts, none is asked for and the card says why; where it
 * may not run them in the game, Execute is disabled with a note.
 */
export function RecentScripts() {
  const can = useScriptListCan();
  const scripts = useScripts();
  const recent = scripts.data?.slice(0, RECENT_SCRIPTS_ON_DASHBOARD);

  let content;
  if (!can.read.allowed) {
    content = <PermissionNotes notes={[{ action: SCRIPT_LIST_ACTIONS.see, can: can.read }]} />;
  } else if (recent && recent.length > 0) {
    content = (
      <Stack gap="3">
        <Stack as="ul" gap="3" listStyleType="none">
          {recent.map((script) => (
            <RecentScript key={script.id} script={script} canRun={can.run} />
          ))}
        </Stack>
        <PermissionNotes notes={[{ action: SCRIPT_LIST_ACTIONS.run, can: can.run }]} />
      </Stack>
    );
  } else if (recent) {
    content = <Text color="fg.muted">No scripts yet. Create your first script to get started.</Text>;
  } else if (scripts.isError) {
    content = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(scripts.error, scripts.error.message)}</Alert.Title>
      </Alert.Root>
    );
  } else {
    content = <Text color="fg.muted">Loading scripts...</Text>;
  }

  return (
    <Card.Root role="region" aria-label="Recent Scripts">
      <Card.Header>
        <HStack justify="space-between">
          <Card.Title as="h2">Recent Scripts</Card.Title>
          <Button asChild size="sm" variant="ghost">
            <Link to="/scripts">
              View all <ArrowRight size={14} />
            </Link>
          </Button>
        </HStack>
      </Card.Header>
      <Card.Body>{content}</Card.Body>
    </Card.Root>
  );
}

function RecentScript({ script, canRun }: { script: Script; canRun: Can }) {
  const { run, isRunning } = useRunScript();
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" px="4" py="3" aria-busy={isRunning || undefined}>
      <HStack justify="space-between" gap="4">
        <Stack gap="1" minW="0">
          <HStack gap="2" minW="0">
            <Text fontWeight="medium" truncate>
              {script.name}
            </Text>
            <ScriptTypeBadge isAutoExecute={script.isAutoExecute} />
          </HStack>
          <Text fontSize="sm" color="fg.muted" truncate>
            {script.description || 'No description'}
          </Text>
          <LastModified iso={script.updatedAt} />
        </Stack>
        <HStack gap="1" flexShrink={0}>
          <ActionIconButton label="Edit" to={`/editor?id=${encodeURIComponent(script.id)}`} disabled={isRunning}>
            <Pencil />
          </ActionIconButton>
          <ActionIconButton
            label="Execute"
            colorPalette="green"
            disabled={isRunning || !canRun.allowed}
            reason={canRun.reason}
            onClick={() => void run(script.id)}
          >
            <Play />
          </ActionIconButton>
        </HStack>
      </HStack>
    </Box>
  );
}
