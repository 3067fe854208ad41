import { Alert, Badge, Button, Center, HStack, Spinner, Stack, Text, Wrap } from '@chakra-ui/react';
import { useState } from 'react';
import type { ModerationAction } from '@moonrelay/contract/moderation';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { canWith, useTeamPermissions } from '../../../lib/team-access.ts';
import { useModerationHistory } from '../api/moderation.ts';
import { BAN_PATH_LABELS, BAN_STATE_PALETTES, formatBanLength } from './ban-labels.ts';
import { ModerationDialog, type ModerationDialogKind } from './ModerationDialog.tsx';

const KIND_LABELS: Record<ModerationAction['kind'], string> = {
  note: 'Note',
  warning: 'Warning',
  kick: 'Kick',
  ban: 'Ban',
  unban: 'Unban',
};
/** The player's moderation: the actions (kick and warn while online) and every action taken, newest first. */
export function PlayerModeration({ userId, online }: { userId: number; online: boolean }) {
  const history = useModerationHistory(userId);
  const [dialog, setDialog] = useState<ModerationDialogKind | null>(null);
  const ban = history.data?.ban ?? null;
  const elsewhere = history.data?.elsewhere ?? null;
  // What the member's role in the team allows; every action on the person's own account.
  const permissions = useTeamPermissions();
  const can = {
    note: canWith(permissions, 'players.note'),
    warn: canWith(permissions, 'players.warn'),
    kick: canWith(permissions, 'players.kick'),
    ban: canWith(permissions, 'players.ban'),
    unban: canWith(permissions, 'players.unban'),
  };
  return (
    <Stack gap="3" data-testid="player-moderation">
      <Text fontWeight="semibold">Moderation</Text>
      <Wrap gap="2">
        <Button
          size="xs"
          variant="outline"
          onClick={() => setDialog('note')}
          disabled={!can.note.allowed}
          title={can.note.reason}
        >
          Note
        </Button>
        <Button
          size="xs"
          variant="outline"
          onClick={() => setDialog('warning')}
          disabled={!online || !can.warn.allowed}
          title={can.warn.reason}
        >
          Warn
        </Button>
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => setDialog('kick')}
          disabled={!online || !can.kick.allowed}
          title={can.kick.reason}
        >
          Kick
        </Button>
        {ban ? (
          <>
            <Button
              size="xs"
              variant="outline"
              onClick={() => setDialog('editBan')}
              disabled={!can.ban.allowed}
              title={can.ban.reason}
            >
              Edit ban
            </Button>
            <Button
              size="xs"
              variant="outline"
              onClick={() => setDialog('unban')}
              disabled={!can.unban.allowed}
              title={can.unban.reason}
            >
              Unban
            </Button>
          </>
        ) : elsewhere ? (
          <Button
            size="xs"
            variant="outline"
            onClick={() => setDialog('unban')}
            disabled={!can.unban.allowed}
            title={can.unban.reason}
          >
            Unban
          </Button>
        ) : (
          <Button
            size="xs"
            colorPalette="red"
            onClick={() => setDialog('ban')}
            disabled={!can.ban.allowed}
            title={can.ban.reason}
          >
            Ban
          </Button>
        )}
      </Wrap>
      <PermissionNotes
        notes={[
          { action: 'Note', can: can.note },
          { action: 'Warn', can: can.warn },
          { action: 'Kick', can: can.kick },
          // The same actions as the buttons above: a ban to edit or lift, one to lift, or none yet.
          ...(ban ? [{ action: 'Edit ban', can: can.ban }] : elsewhere ? [] : [{ action: 'Ban', can: can.ban }]),
          ...(ban || elsewhere ? [{ action: 'Unban', can: can.unban }] : []),
        ]}
      />
      {elsewhere && (
        <Alert.Root status="warning" size="sm" data-testid="ban-elsewhere">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Banned elsewhere</Alert.Title>
            <Alert.Description>
              A ban made outside Moonrelay (Creator Hub or another tool), {formatBanLength(elsewhere.durationSeconds)}
              {elsewhere.startTime ? ` since ${formatDateTime(elsewhere.startTime)}` : ''}
              {elsewhere.displayReason ? `: ${elsewhere.displayReason}` : ''}. Unban lifts it through Open Cloud.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {!online && (
        <Text fontSize="xs" color="fg.muted">
          Warnings and kicks reach a player who is online.
        </Text>
      )}
      {history.isPending ? (
        <Center py="4">
          <Spinner size="sm" aria-label="Loading moderation history" />
        </Center>
      ) : history.data && history.data.actions.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          No moderation yet.
        </Text>
      ) : (
        <Stack gap="2" as="ol" listStyleType="none" aria-label="Moderation history">
          {history.data?.actions.map((action) => (
            <HistoryEntry key={action.id} action={action} />
          ))}
        </Stack>
      )}
      <ModerationDialog userId={userId} kind={dialog} ban={ban} onClose={() => setDialog(null)} />
    </Stack>
  );
}

function HistoryEntry({ action }: { action: ModerationAction }) {
  return (
    <Stack as="li" gap="1" borderWidth="1px" borderRadius="md" p="2" data-testid="moderation-entry">
      <HStack gap="2" flexWrap="wrap">
        <Badge>{action.kind === 'ban' && action.replaces ? 'Ban (edited)' : KIND_LABELS[action.kind]}</Badge>
        {action.kind !== 'note' && (
          <Badge colorPalette={BAN_STATE_PALETTES[action.state]} data-testid="moderation-state">
            {action.state}
          </Badge>
        )}
        {action.kind === 'ban' && <Text fontSize="xs">{formatBanLength(action.durationSeconds)}</Text>}
        {action.kind === 'ban' && action.endedBy && (
          <Text fontSize="xs" color="fg.muted">
            ended
          </Text>
        )}
      </HStack>
      {action.message && <Text fontSize="sm">{action.message}</Text>}
      {action.privateReason && (
        <Text fontSize="xs" color="fg.muted">
          Private: {action.privateReason}
        </Text>
      )}
      {action.error && (
        <Text fontSize="xs" color="fg.error">
          Roblox: {action.error}
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted">
        {action.actorName ?? 'Someone'} · {formatDateTime(action.createdAt)}
        {action.path ? ` · by ${BAN_PATH_LABELS[action.path]}` : ''}
      </Text>
    </Stack>
  );
}
