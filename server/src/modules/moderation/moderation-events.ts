import type { ModerationAction } from '@moonrelay/contract/moderation';
import type { RaisedEvent } from '../notifications/notifier.ts';

const KINDS = {
  kick: 'player.kicked',
  warning: 'player.warned',
  ban: 'player.banned',
  unban: 'player.unbanned',
} as const;

const VERBS = { kick: 'kicked', warning: 'warned', ban: 'banned', unban: 'unbanned' } as const;

const lasting = (seconds: number | null) => (seconds === null ? 'permanent' : `${seconds} s`);

/**
 * The notification event of a moderation action whose outcome is known (applied, or failed with
 * Roblox's error); none for notes, which are private.
 */
export function moderationEvent(action: ModerationAction, name: string | null): RaisedEvent | undefined {
  if (action.kind === 'note') return undefined;
  const who = name ?? `Player ${action.userId}`;
  const verb = VERBS[action.kind];
  const failed = action.state === 'failed';
  const title = failed
    ? `${who} could not be ${verb}`
    : action.replaces
      ? `${who}'s ban was changed`
      : `${who} was ${verb}`;
  const fields = [
    { name: 'Player', value: `${who} (${action.userId})` },
    { name: 'By', value: action.actorName ?? 'unknown' },
  ];
  if (action.kind === 'ban') fields.push({ name: 'Duration', value: lasting(action.durationSeconds) });
  if (action.path) fields.push({ name: 'Path', value: action.path });
  return {
    kind: KINDS[action.kind],
    title,
    description: failed
      ? `Roblox answered: ${action.error ?? 'no reason given'}`
      : action.message || `${who} was ${verb}.`,
    path: `/players?player=${action.userId}`,
    fields,
    data: {
      actionId: action.id,
      userId: action.userId,
      kind: action.kind,
      state: action.state,
      error: action.error,
      path: action.path,
      reason: action.message,
      durationSeconds: action.durationSeconds,
      actorName: action.actorName,
    },
  };
}
