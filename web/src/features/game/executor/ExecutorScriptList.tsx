import { Box, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { Play } from 'lucide-react';
import type { Script } from '@moonrelay/contract/scripts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import type { Can } from '../../../lib/team-access.ts';
import { GAME_ACTIONS } from '../game-text.ts';

interface Props {
  /** The user's scripts; undefined while they load. */
  scripts: readonly Script[] | undefined;
  failed: boolean;
  /** Whether the member's role may read the scripts: the list is not asked for otherwise, and says why. */
  read: Can;
  disabled: boolean;
  /** Why running is not allowed, as the disabled run buttons' title. */
  reason?: string;
  onRun(script: Script): void;
}

/**
 * Three rows and their gaps fill the 200px exactly, so the area never shows a row cut in half; a
 * fourth row starts just below its edge and scrolls in whole.
 */
const ROW_HEIGHT = '60px';
const ROW_GAP = '10px';

/** The user's scripts in a 200px scroll area (spec section 9), each with a run button. */
export function ExecutorScriptList({ scripts, failed, read, disabled, reason, onRun }: Props) {
  let content;
  if (!read.allowed) {
    content = <PermissionNotes notes={[{ action: GAME_ACTIONS.scripts, can: read }]} />;
  } else if (scripts && scripts.length > 0) {
    content = (
      <Stack as="ul" gap={ROW_GAP} listStyleType="none" pe="2">
        {scripts.map((script) => (
          <HStack
            as="li"
            key={script.id}
            justify="space-between"
            gap="3"
            borderWidth="1px"
            borderRadius="md"
            px="3"
            py="1.5"
            h={ROW_HEIGHT}
            flexShrink={0}
          >
            <Stack gap="0" minW="0">
              <Text fontWeight="medium" truncate>
                {script.name}
              </Text>
              <Text fontSize="sm" color="fg.muted" truncate>
                {script.description || 'No description'}
              </Text>
            </Stack>
            <IconButton
              aria-label={`Run ${script.name}`}
              size="sm"
              variant="ghost"
              colorPalette="green"
              disabled={disabled}
              title={reason}
              onClick={() => onRun(script)}
            >
              <Play />
            </IconButton>
          </HStack>
        ))}
      </Stack>
    );
  } else if (scripts) {
    content = <Text color="fg.muted">No scripts yet. Create your first script to get started.</Text>;
  } else if (failed) {
    content = <Text color="fg.error">Your scripts could not be loaded.</Text>;
  } else {
    content = <Text color="fg.muted">Loading scripts...</Text>;
  }

  return (
    <Box height="200px" overflowY="auto" data-testid="executor-scripts">
      {content}
    </Box>
  );
}
