import type { AuditEntry } from '@moonrelay/contract/admin';
import type { ScheduleTarget } from '@moonrelay/contract/schedules';
import { ROLE_LABELS, TEAM_ROLES, type TeamRole } from '@moonrelay/contract/teams';
import { TARGET_LABELS, targetText, timingText } from '../../lib/schedule-words.ts';

/**
 * The kinds the activity log filters by, each an action family the server matches by prefix. The
 * server takes one family at a time, so changes made with an API key (`key.change`) have a kind
 * of their own beside the keys' making and revoking (`account.`).
 */
export const ACTIVITY_KINDS = [
  { label: 'All', action: '' },
  { label: 'Members', action: 'team.' },
  { label: 'Moderation', action: 'moderation.' },
  { label: 'Keys', action: 'account.' },
  { label: 'Made with a key', action: 'key.' },
  { label: 'Schedules', action: 'schedule.' },
] as const;

/** The family an entry belongs to, for its row's mark (`data-kind`). */
export function kindOf(action: string): 'members' | 'moderation' | 'keys' | 'schedules' | 'other' {
  if (action.startsWith('team.')) return 'members';
  if (action.startsWith('schedule.')) return 'schedules';
  if (action.startsWith('moderation.')) return 'moderation';
  if (action.startsWith('account.') || action.startsWith('key.')) return 'keys';
  return 'other';
}

/** Who a user id is: the team's members, and anyone named by an entry loaded (a former member). */
export type Names = ReadonlyMap<string, string>;

const FORMER_MEMBER = 'a former member';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const isTeamRole = (value: unknown): value is TeamRole => TEAM_ROLES.some((role) => role === value);
const roleText = (value: unknown): string => (isTeamRole(value) ? ROLE_LABELS[value] : 'an unknown role');

/** Who acted: the name the entry kept, else the name the team knows them by. */
function actorOf(entry: AuditEntry, names: Names): string {
  return entry.actorName ?? (entry.actorId ? (names.get(entry.actorId) ?? FORMER_MEMBER) : 'Moonrelay');
}

function personOf(userId: unknown, names: Names): string {
  return (typeof userId === 'string' && names.get(userId)) || FORMER_MEMBER;
}

const scriptOf = (details: Record<string, unknown>) =>
  text(details.scriptName) ? `“${text(details.scriptName)}”` : 'a script';
const withKey = (keyName: string | undefined) => (keyName ? ` with the API key “${keyName}”` : '');

/** A pause or a resume reads as one; any other change as a change. */
function scheduleChange(details: Record<string, unknown>): string {
  const changed = Array.isArray(details.changed) ? details.changed : [];
  if (changed.length === 1 && changed[0] === 'enabled') {
    return details.enabled ? 'resumed the schedule of' : 'paused the schedule of';
  }
  return 'changed the schedule of';
}

/** A schedule's timing and target as it was set, as the Schedules panel words them. */
function scheduleDetail(details: Record<string, unknown>): string | undefined {
  const kind = details.kind === 'interval' || details.kind === 'cron' ? details.kind : undefined;
  const target = typeof details.target === 'string' && details.target in TARGET_LABELS ? details.target : undefined;
  if (!kind || !target) return undefined;
  const timing = timingText({
    kind,
    cron: text(details.cron) ?? null,
    timeZone: text(details.timeZone) ?? null,
    intervalSeconds: typeof details.intervalSeconds === 'number' ? details.intervalSeconds : null,
  });
  const where = targetText({ target: target as ScheduleTarget, serverId: text(details.serverId) ?? null });
  return `${timing} · ${where}${details.enabled === false ? ' · paused' : ''}`;
}

const OUTCOME_KIND: Record<string, string> = {
  kick: 'kick',
  warning: 'warning',
  ban: 'ban',
  unban: 'unban',
};

/**
 * One entry in words, "ada banned player 156", "bob joined as Moderator", "ada changed bob:
 * Moderator → Custom". An action this screen does not know yet reads by its name.
 */
export function activitySentence(entry: AuditEntry, names: Names): string {
  const who = actorOf(entry, names);
  const { details } = entry;
  const player = `player ${entry.targetId ?? 'unknown'}`;
  const keyName = text(details.keyName);
  const key = keyName ? `the API key “${keyName}”` : 'an API key';
  switch (entry.action) {
    case 'team.created':
      return text(details.name) ? `${who} created the team “${text(details.name)}”` : `${who} created the team`;
    case 'team.invitation_created':
      return `${who} made an invitation link for ${roleText(details.role)}`;
    case 'team.invitation_revoked':
      return `${who} revoked an invitation link`;
    case 'team.member_joined':
      return `${who} joined as ${roleText(details.role)}`;
    case 'team.member_left':
      return `${who} left the team`;
    case 'team.member_removed':
      return `${who} removed ${personOf(details.userId, names)} from the team`;
    case 'team.member_changed':
      return `${who} changed ${personOf(details.userId, names)}: ${roleText(details.from)} → ${roleText(details.to)}`;
    case 'team.deleted':
      return `${who} deleted the team`;
    case 'moderation.note':
      return `${who} wrote a note on ${player}`;
    case 'moderation.warning':
      return `${who} warned ${player}`;
    case 'moderation.kick':
      return `${who} kicked ${player}`;
    case 'moderation.ban':
      return `${who} banned ${player}`;
    case 'moderation.ban_edited':
      return `${who} changed the ban of ${player}`;
    case 'moderation.unban':
      return `${who} unbanned ${player}`;
    case 'moderation.outcome': {
      // Written by the server when the game answers: the member who acted is in the details.
      const kind = OUTCOME_KIND[String(details.kind)] ?? 'action';
      const result = details.result === 'applied' ? 'took effect' : 'failed';
      const by = text(details.takenBy) ? ` (by ${text(details.takenBy)})` : '';
      return `The ${kind} of ${player}${by} ${result}`;
    }
    case 'account.api_key_created':
      return `${who} made ${key}`;
    case 'account.api_key_revoked':
      return `${who} revoked ${key}`;
    case 'account.key_regenerated':
      return `${who} made a new game key: the old one stopped working`;
    case 'key.change':
      return `${who} made a change with ${key}: ${text(details.call) ?? 'an API call'}`;
    case 'schedule.created':
      return `${who} scheduled ${scriptOf(details)}${withKey(keyName)}`;
    case 'schedule.changed':
      return `${who} ${scheduleChange(details)} ${scriptOf(details)}${withKey(keyName)}`;
    case 'schedule.deleted':
      return `${who} deleted the schedule of ${scriptOf(details)}${withKey(keyName)}`;
    default:
      return `${who}: ${entry.action}`;
  }
}

/** A line under the sentence when the entry says more: a reason, an error, the permissions given. */
export function activityDetail(entry: AuditEntry): string | undefined {
  const { details } = entry;
  if (entry.action === 'moderation.outcome') return text(details.error);
  if (entry.action.startsWith('schedule.')) return scheduleDetail(details);
  if (entry.action.startsWith('moderation.')) return text(details.reason) && `Reason: ${text(details.reason)}`;
  if (
    (entry.action === 'team.member_changed' || entry.action === 'team.member_joined') &&
    Array.isArray(details.permissions) &&
    (details.to ?? details.role) === 'custom'
  ) {
    return `Permissions: ${details.permissions.join(', ')}`;
  }
  return undefined;
}

/** The words of the activity section, in one place so the tests read the same ones. */
export const ACTIVITY_TEXT = {
  title: 'Activity',
  hidden: (reason: string) => `${reason}: the team’s activity log is not open to your role.`,
  description: 'Who did what in the team, newest first: members, moderation, keys and schedules.',
  kindLabel: 'Kind',
  personLabel: 'Person',
  everyone: 'Everyone',
  listLabel: 'Team activity',
  loadFailed: 'The activity log could not be loaded.',
  moreFailed: 'The older entries could not be loaded.',
  retry: 'Retry',
  empty: 'Nothing has happened in this team yet.',
  emptyFiltered: 'No activity matches these filters.',
  loadMore: 'Load more',
  loadingMore: 'Loading...',
  shown: (count: number) => (count === 1 ? '1 entry' : `${count.toLocaleString()} entries`),
  start: 'That is all of the team’s activity.',
} as const;
