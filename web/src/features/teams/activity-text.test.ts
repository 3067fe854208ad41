import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@moonrelay/contract/admin';
import { activityDetail, activitySentence, kindOf } from './activity-text.ts';

const names = new Map([
  ['u1', 'ada'],
  ['u2', 'bob'],
]);

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: 'e1',
    actorId: 'u1',
    actorName: 'ada',
    action: 'team.created',
    targetType: 'team',
    targetId: 't1',
    details: {},
    createdAt: '2026-11-29T12:00:00.000Z',
    ...overrides,
  };
}

describe('an activity entry in words', () => {
  it('names the member acted on, or a former member when the team no longer knows them', () => {
    expect(activitySentence(entry({ action: 'team.member_removed', details: { userId: 'u2' } }), names)).toBe(
      'ada removed bob from the team',
    );
    expect(activitySentence(entry({ action: 'team.member_removed', details: { userId: 'u7' } }), names)).toBe(
      'ada removed a former member from the team',
    );
  });

  it('names the actor by id when the entry kept no name (a team’s game key made by a member)', () => {
    const regenerated = entry({ action: 'account.key_regenerated', actorId: 'u2', actorName: null });
    expect(activitySentence(regenerated, names)).toBe('bob made a new game key: the old one stopped working');
  });

  it('tells a moderation outcome by who took the action, and its error', () => {
    const failed = entry({
      action: 'moderation.outcome',
      actorId: null,
      actorName: null,
      targetType: 'player',
      targetId: '156',
      details: { kind: 'ban', takenBy: 'ada', result: 'failed', error: 'Roblox refused' },
    });
    expect(activitySentence(failed, names)).toBe('The ban of player 156 (by ada) failed');
    expect(activityDetail(failed)).toBe('Roblox refused');
  });

  it('tells a schedule set, paused, resumed, changed and deleted by its script, timing and target', () => {
    const nightly = {
      scriptName: 'Nightly reset',
      kind: 'cron',
      cron: '0 3 * * *',
      timeZone: 'UTC',
      intervalSeconds: null,
      target: 'all-servers',
      serverId: null,
      enabled: true,
    };
    const set = entry({ action: 'schedule.created', targetType: 'schedule', details: nightly });
    expect(activitySentence(set, names)).toBe('ada scheduled “Nightly reset”');
    expect(activityDetail(set)).toBe('Cron 0 3 * * * (UTC) · All live game servers');
    expect(kindOf(set.action)).toBe('schedules');

    const paused = { ...nightly, enabled: false, changed: ['enabled'] };
    expect(activitySentence(entry({ action: 'schedule.changed', details: paused }), names)).toBe(
      'ada paused the schedule of “Nightly reset”',
    );
    expect(activityDetail(entry({ action: 'schedule.changed', details: paused }))).toBe(
      'Cron 0 3 * * * (UTC) · All live game servers · paused',
    );
    const resumed = entry({ action: 'schedule.changed', details: { ...nightly, changed: ['enabled'] } });
    expect(activitySentence(resumed, names)).toBe('ada resumed the schedule of “Nightly reset”');
    const moved = { ...nightly, kind: 'interval', intervalSeconds: 300, target: 'server', serverId: 'jb-1' };
    const changed = entry({ action: 'schedule.changed', details: { ...moved, changed: ['kind', 'target'] } });
    expect(activitySentence(changed, names)).toBe('ada changed the schedule of “Nightly reset”');
    expect(activityDetail(changed)).toBe('Every 5 min · Game server jb-1');

    const byKey = entry({ action: 'schedule.deleted', details: { ...nightly, keyName: 'CI', scriptName: undefined } });
    expect(activitySentence(byKey, names)).toBe('ada deleted the schedule of a script with the API key “CI”');
    // An entry whose details are not a schedule's (written by a later version) has no detail line.
    expect(activityDetail(entry({ action: 'schedule.created', details: { kind: 'weekly' } }))).toBeUndefined();
  });

  it('tells keys by name, and a change made with one by its call', () => {
    expect(activitySentence(entry({ action: 'account.api_key_created', details: { keyName: 'CI' } }), names)).toBe(
      'ada made the API key “CI”',
    );
    const change = entry({ action: 'key.change', details: { keyName: 'CI', call: 'POST /api/scripts' } });
    expect(activitySentence(change, names)).toBe('ada made a change with the API key “CI”: POST /api/scripts');
    expect(kindOf(change.action)).toBe('keys');
  });

  it('reads an action it does not know by its name', () => {
    expect(activitySentence(entry({ action: 'team.renamed' }), names)).toBe('ada: team.renamed');
  });
});
