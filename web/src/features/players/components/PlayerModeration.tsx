import { Alert, Badge, Box, Button, Center, defineStyle, Spinner, Stack, Text, Wrap } from '@chakra-ui/react';
import { memo, useState } from 'react';
import type { ModerationAction } from '@moonrelay/contract/moderation';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
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
/** An entry's height as first guessed: an entry is measured once drawn (its text may wrap). */
const ENTRY_ESTIMATE = 96;
const entryEstimate = () => ENTRY_ESTIMATE;
const actionId = (action: ModerationAction) => action.id;
/** Entries drawn past each edge of the view. */
const OVERSCAN = 3;

/**
 * How an entry looks, declared once for the list: entries are plain elements with class names,
 * not Chakra components with style props of their own. The space between entries is each entry's
 * own (its padding), so the measured entries and the spacers add up to the list's height.
 */
const HISTORY_CSS = defineStyle({
  '& ol': { listStyleType: 'none' },
  '& .moderation-entry': { pb: '2' },
  '& .moderation-card': {
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    borderWidth: '1px',
    borderRadius: 'md',
    p: '2',
  },
  '& .moderation-badges': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' },
  '& .moderation-message': { fontSize: 'sm' },
  '& .moderation-small': { fontSize: 'xs' },
  '& .moderation-muted': { color: 'fg.muted' },
  '& .moderation-error': { color: 'fg.error' },
});

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
        <HistoryEntries actions={history.data?.actions ?? []} />
      )}
      <ModerationDialog userId={userId} kind={dialog} ban={ban} onClose={() => setDialog(null)} />
    </Stack>
  );
}

/**
 * The actions in a scroll box of their own that draws only the entries in view (a player's history
 * comes a hundred actions long): spacers (hidden from screen readers) stand in for the entries not
 * drawn, and each entry says its place in the whole list.
 */
function HistoryEntries({ actions }: { actions: readonly ModerationAction[] }) {
  const { scrollerRef, tabIndex, measure, drawn, before, after } = useRowsInView(actions, {
    keyOf: actionId,
    estimateSize: entryEstimate,
    overscan: OVERSCAN,
    screenful: ENTRY_ESTIMATE * 6,
  });
  return (
    // No scroll anchoring: the browser keeping an entry in place as the space above changes would scroll again.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label="Moderation history"
      maxH="min(50vh, 30rem)"
      overflowY="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      css={HISTORY_CSS}
    >
      <ol aria-label="Moderation history">
        {before > 0 && <li aria-hidden style={{ height: before }} />}
        {drawn.map(({ index }) => {
          const action = actions[index]!;
          return (
            <HistoryEntry key={action.id} action={action} index={index} setSize={actions.length} measure={measure} />
          );
        })}
        {after > 0 && <li aria-hidden style={{ height: after }} />}
      </ol>
    </Box>
  );
}

const HistoryEntry = memo(function HistoryEntry({
  action,
  index,
  setSize,
  measure,
}: {
  action: ModerationAction;
  index: number;
  setSize: number;
  measure(entry: Element | null): void;
}) {
  return (
    <li
      ref={measure}
      data-index={index}
      className="moderation-entry"
      data-testid="moderation-entry"
      aria-posinset={index + 1}
      aria-setsize={setSize}
    >
      <div className="moderation-card">
        <div className="moderation-badges">
          <Badge>{action.kind === 'ban' && action.replaces ? 'Ban (edited)' : KIND_LABELS[action.kind]}</Badge>
          {action.kind !== 'note' && (
            <Badge colorPalette={BAN_STATE_PALETTES[action.state]} data-testid="moderation-state">
              {action.state}
            </Badge>
          )}
          {action.kind === 'ban' && <span className="moderation-small">{formatBanLength(action.durationSeconds)}</span>}
          {action.kind === 'ban' && action.endedBy && <span className="moderation-small moderation-muted">ended</span>}
        </div>
        {action.message && <p className="moderation-message">{action.message}</p>}
        {action.privateReason && <p className="moderation-small moderation-muted">Private: {action.privateReason}</p>}
        {action.error && <p className="moderation-small moderation-error">Roblox: {action.error}</p>}
        <p className="moderation-small moderation-muted">
          {action.actorName ?? 'Someone'} · {formatDateTime(action.createdAt)}
          {action.path ? ` · by ${BAN_PATH_LABELS[action.path]}` : ''}
        </p>
      </div>
    </li>
  );
});
