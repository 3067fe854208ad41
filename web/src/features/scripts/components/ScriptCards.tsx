import { Box, Button, Flex, Heading, HStack, SimpleGrid, Text } from '@chakra-ui/react';
import { Copy, Pencil, Play, Trash2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Script } from '@moonrelay/contract/scripts';
import { LastModified } from './LastModified.tsx';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { DeleteScriptDialog, useScriptActions, type ScriptListCan } from './script-actions.tsx';

interface Props {
  scripts: Script[];
  /** Shown in place of the cards when `scripts` is empty. */
  emptyText: string;
  /** What the member's role allows: the actions it does not are disabled, with the reason as title. */
  can: ScriptListCan;
}

/**
 * My Scripts below the md breakpoint: one card per script, everything in view without scrolling
 * sideways, and the actions named in words (a touch screen shows no tooltips) in reading and Tab
 * order: Edit, Execute, Duplicate, Delete.
 */
export function ScriptCards({ scripts, emptyText, can }: Props) {
  if (scripts.length === 0) {
    return (
      <Text py="10" textAlign="center" color="fg.muted">
        {emptyText}
      </Text>
    );
  }
  return (
    <Box as="ul" aria-label="Scripts" listStyleType="none" display="flex" flexDirection="column" gap="3">
      {scripts.map((script) => (
        <ScriptCard key={script.id} script={script} can={can} />
      ))}
    </Box>
  );
}

function ScriptCard({ script, can }: { script: Script; can: ScriptListCan }) {
  const actions = useScriptActions(script);
  const { busy } = actions;
  const editPath = `/editor?id=${encodeURIComponent(script.id)}`;
  return (
    <Box as="li" borderWidth="1px" borderRadius="l2" p="3" aria-busy={busy || undefined} data-testid="script-card">
      <Flex justify="space-between" align="flex-start" gap="3">
        <Box minW="0">
          <Heading as="h2" size="sm" truncate>
            {script.name}
          </Heading>
          <Text fontSize="sm" color="fg.muted" lineClamp="2" wordBreak="break-word">
            {script.description || 'No description'}
          </Text>
        </Box>
        <ScriptTypeBadge isAutoExecute={script.isAutoExecute} />
      </Flex>
      <HStack gap="2" mt="1" fontSize="sm" color="fg.muted" wrap="wrap">
        <LastModified iso={script.updatedAt} />
        <span aria-hidden>·</span>
        <Text data-testid="script-card-executions">
          {script.executionCount.toLocaleString('en')} {script.executionCount === 1 ? 'execution' : 'executions'}
        </Text>
      </HStack>
      <SimpleGrid columns={2} gap="2" mt="3">
        {/* A link cannot be disabled, so a busy edit action is a disabled button. */}
        {busy ? (
          <Button size="sm" variant="outline" disabled>
            <Pencil /> Edit
          </Button>
        ) : (
          <Button asChild size="sm" variant="outline">
            <Link to={editPath}>
              <Pencil /> Edit
            </Link>
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          colorPalette="green"
          disabled={busy || !can.run.allowed}
          title={can.run.reason}
          onClick={actions.run}
        >
          <Play /> Execute
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy || !can.change.allowed}
          title={can.change.reason}
          onClick={actions.duplicate}
        >
          <Copy /> Duplicate
        </Button>
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          disabled={busy || !can.change.allowed}
          title={can.change.reason}
          onClick={actions.askToDelete}
        >
          <Trash2 /> Delete
        </Button>
      </SimpleGrid>
      <DeleteScriptDialog script={script} actions={actions} />
    </Box>
  );
}
