import { Badge, Box, Card, HStack, Stack, Text } from '@chakra-ui/react';
import type { MassProgress, MassProgressStatus } from '@moonrelay/contract/admin';
import { IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';
import { formatTime } from '../../../../lib/format.ts';
import { isFinalProgress, useAdminLiveStore, type BatchUser } from '../../live/admin-live-store.ts';

const STATUSES: Record<MassProgressStatus, { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  sending: { label: 'Sending', palette: 'gray' },
  sent: { label: 'Sent', palette: 'blue' },
  delivered: { label: 'Delivered', palette: 'cyan' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  not_connected: { label: 'Not connected', palette: 'orange' },
  expired: { label: 'Expired', palette: 'orange' },
};

const WHAT: Record<string, string> = {
  teleport: 'Teleport',
  heal: 'Heal',
  speed: 'Speed',
  reset: 'Reset',
  script: 'Script',
};

/**
 * The latest mass execution started here: a row per user with where their part stands (queued,
 * sent, delivered, then succeeded or failed with the game's output or error, not connected, or
 * expired), moving on live as 'mass:progress' events arrive.
 */
export function MassProgressList() {
  const batch = useAdminLiveStore((state) => state.batches[0]);
  const parts = useAdminLiveStore((state) => (batch ? state.progress[batch.batchId] : undefined));
  if (!batch) return null;

  const done = batch.users.filter((user) => {
    const part = parts?.[user.id];
    return part !== undefined && isFinalProgress(part.status);
  }).length;

  return (
    <Card.Root size="sm" role="region" aria-label="Progress">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Card.Title as="h2">
            Progress: {WHAT[batch.what] ?? batch.what} on {batch.users.length}{' '}
            {batch.users.length === 1 ? 'user' : 'users'}
          </Card.Title>
          <Text fontSize="sm" color="fg.muted">
            Started {formatTime(batch.startedAt)} · {done} of {batch.users.length} finished
          </Text>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="2" as="ul" listStyleType="none">
          {batch.users.map((user) => (
            <ProgressRow key={user.id} user={user} part={parts?.[user.id]} />
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function ProgressRow({ user, part }: { user: BatchUser; part: MassProgress | undefined }) {
  const status = STATUSES[part?.status ?? 'queued'];
  const output = part?.output?.trim();
  const error = part?.error?.trim();
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" px="3" py="2" data-testid="mass-progress-row" data-user={user.id}>
      <HStack justify="space-between" gap="3">
        <Text fontSize="sm" minW="0" truncate>
          <Text as="span" fontWeight="medium">
            {user.name}
          </Text>{' '}
          <Text as="span" color="fg.muted">
            @{user.username} · {user.id.slice(0, IDENTIFIER_DISPLAY_LENGTH)}
          </Text>
        </Text>
        <Badge colorPalette={status.palette} data-testid="mass-progress-status">
          {status.label}
        </Badge>
      </HStack>
      {(output || error) && (
        <Box
          as="pre"
          mt="2"
          p="2"
          borderRadius="sm"
          bg="bg.muted"
          fontFamily="mono"
          fontSize="xs"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          maxH="24"
          overflowY="auto"
          data-testid="mass-progress-output"
        >
          {output && <Text as="span">{output}</Text>}
          {output && error && '\n'}
          {error && (
            <Text as="span" color="fg.error">
              {error}
            </Text>
          )}
        </Box>
      )}
    </Box>
  );
}
