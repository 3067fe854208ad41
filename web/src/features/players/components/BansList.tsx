import { Alert, Badge, Box, Button, Center, Heading, HStack, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { BanList } from '@moonrelay/contract/moderation';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useBanList } from '../api/moderation.ts';
import { BAN_STATE_PALETTES, BAN_PATH_LABELS, formatBanLength } from './ban-labels.ts';

export const BANS_TEXT = {
  loading: 'Loading bans…',
  loadFailed: 'Could not load the bans',
  ours: 'Bans from Moonrelay',
  oursEmpty: 'No ban from Moonrelay is in force.',
  elsewhere: 'Bans made elsewhere',
  elsewhereHint:
    'Bans in force in Roblox that Moonrelay did not make (Creator Hub, other tools), as of the last Open Cloud import. Open a player to lift one.',
  elsewhereEmpty: 'None found at the last Open Cloud import.',
};

type OurBan = BanList['bans'][number];
type ElsewhereBan = BanList['elsewhere'][number];

/** When a timed ban ends (from when it took effect), or "never". */
function banEnds(ban: { durationSeconds: number | null }, since: string | null): string {
  if (ban.durationSeconds === null) return 'never';
  if (!since) return '—';
  return formatDateTime(new Date(Date.parse(since) + ban.durationSeconds * 1000).toISOString());
}

/**
 * The game's ban list: Moonrelay's bans in force (with how each reaches Roblox and where it
 * stands) and, with an Open Cloud key, the bans made elsewhere. A row opens the player.
 */
export function BansList({ onSelect }: { onSelect(userId: number): void }) {
  const list = useBanList();
  if (list.isPending)
    return (
      <Center py="10" gap="2" color="fg.muted">
        <Spinner size="sm" /> {BANS_TEXT.loading}
      </Center>
    );
  if (list.isError)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{BANS_TEXT.loadFailed}</Alert.Title>
          <Alert.Description>{messageOf(list.error, list.error.message)}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  const { bans, elsewhere } = list.data;
  return (
    <Stack gap="8">
      <Stack gap="3" as="section" aria-labelledby="bans-ours">
        <Heading as="h2" size="md" id="bans-ours">
          {BANS_TEXT.ours} ({bans.length.toLocaleString()})
        </Heading>
        {bans.length === 0 ? (
          <Text color="fg.muted">{BANS_TEXT.oursEmpty}</Text>
        ) : (
          <ScrollTable label={BANS_TEXT.ours}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Player</Table.ColumnHeader>
                <Table.ColumnHeader>Reason</Table.ColumnHeader>
                <Table.ColumnHeader>Length</Table.ColumnHeader>
                <Table.ColumnHeader>Ends</Table.ColumnHeader>
                <Table.ColumnHeader>State</Table.ColumnHeader>
                <Table.ColumnHeader>By</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {bans.map((ban) => (
                <OurBanRow key={ban.id} ban={ban} onSelect={onSelect} />
              ))}
            </Table.Body>
          </ScrollTable>
        )}
      </Stack>
      <Stack gap="3" as="section" aria-labelledby="bans-elsewhere">
        <Heading as="h2" size="md" id="bans-elsewhere">
          {BANS_TEXT.elsewhere} ({elsewhere.length.toLocaleString()})
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {BANS_TEXT.elsewhereHint}
        </Text>
        {elsewhere.length === 0 ? (
          <Text color="fg.muted">{BANS_TEXT.elsewhereEmpty}</Text>
        ) : (
          <ScrollTable label={BANS_TEXT.elsewhere}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Player</Table.ColumnHeader>
                <Table.ColumnHeader>Reason</Table.ColumnHeader>
                <Table.ColumnHeader>Length</Table.ColumnHeader>
                <Table.ColumnHeader>Since</Table.ColumnHeader>
                <Table.ColumnHeader>Ends</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {elsewhere.map((ban) => (
                <ElsewhereBanRow key={ban.userId} ban={ban} onSelect={onSelect} />
              ))}
            </Table.Body>
          </ScrollTable>
        )}
      </Stack>
    </Stack>
  );
}

/** A table that scrolls sideways inside itself on a narrow screen, reachable by keyboard to do so. */
function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box overflowX="auto" tabIndex={0} role="region" aria-label={label} borderRadius="md">
      <Table.Root size="sm" interactive aria-label={label} minW="40rem">
        {children}
      </Table.Root>
    </Box>
  );
}

function PlayerCell({ userId, name, onSelect }: { userId: number; name: string | null; onSelect(id: number): void }) {
  return (
    <Table.Cell>
      <Button
        variant="plain"
        size="sm"
        px="0"
        h="auto"
        onClick={() => onSelect(userId)}
        aria-label={`Open ${name ?? userId}`}
      >
        <Stack gap="0" align="flex-start">
          <Text fontWeight="medium">{name ?? 'Unknown player'}</Text>
          <Text fontSize="xs" color="fg.muted">
            {userId}
          </Text>
        </Stack>
      </Button>
    </Table.Cell>
  );
}

function OurBanRow({ ban, onSelect }: { ban: OurBan; onSelect(id: number): void }) {
  return (
    <Table.Row data-testid="ban-row">
      <PlayerCell userId={ban.userId} name={ban.name} onSelect={onSelect} />
      <Table.Cell maxW="16rem">
        <Text lineClamp={2}>{ban.message}</Text>
      </Table.Cell>
      <Table.Cell>{formatBanLength(ban.durationSeconds)}</Table.Cell>
      <Table.Cell>{banEnds(ban, ban.completedAt ?? ban.createdAt)}</Table.Cell>
      <Table.Cell>
        <HStack gap="1" wrap="wrap">
          <Badge colorPalette={BAN_STATE_PALETTES[ban.state]}>{ban.state}</Badge>
          {ban.path && <Text fontSize="xs">{BAN_PATH_LABELS[ban.path]}</Text>}
        </HStack>
        {ban.error && (
          <Text fontSize="xs" color="fg.error">
            Roblox: {ban.error}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell>
        <Text fontSize="sm">{ban.actorName ?? 'Someone'}</Text>
        <Text fontSize="xs" color="fg.muted">
          {formatDateTime(ban.createdAt)}
        </Text>
      </Table.Cell>
    </Table.Row>
  );
}

function ElsewhereBanRow({ ban, onSelect }: { ban: ElsewhereBan; onSelect(id: number): void }) {
  return (
    <Table.Row data-testid="ban-elsewhere-row">
      <PlayerCell userId={ban.userId} name={ban.name} onSelect={onSelect} />
      <Table.Cell maxW="16rem">
        <Text lineClamp={2}>{ban.displayReason || '—'}</Text>
      </Table.Cell>
      <Table.Cell>{formatBanLength(ban.durationSeconds)}</Table.Cell>
      <Table.Cell>{formatDateTime(ban.startTime)}</Table.Cell>
      <Table.Cell>{banEnds(ban, ban.startTime)}</Table.Cell>
    </Table.Row>
  );
}
