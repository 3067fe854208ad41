import { describe, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, type CloudLogLine, type CloudPlaceStatus } from '@moonrelay/contract/cloud-runs';
import type { Run } from '@moonrelay/contract/runs';
import { applyCloudLogs, cloudReadiness, CLOUD_RUN_TEXT, LUAU_WRITE_SCOPE, withLiveCloud } from './cloud-run.ts';

const line = (message: string, type: CloudLogLine['type'] = 'output'): CloudLogLine => ({ message, type, time: null });

const run = (state: NonNullable<Run['cloud']>['state'], logs: CloudLogLine[]): Run => ({
  id: 'e1',
  scriptId: null,
  scriptName: null,
  scriptVersion: null,
  target: 'cloud',
  serverId: null,
  status: 'pending',
  limitHit: null,
  durationMs: 0,
  startedBy: 'user',
  actorId: null,
  actorName: null,
  keyName: null,
  cloudState: state,
  createdAt: '2026-11-29T10:00:00.000Z',
  code: 'print(1)',
  codeComplete: true,
  output: '',
  error: null,
  cloud: {
    state,
    universeId: '1',
    placeId: '2',
    placeVersion: null,
    timeoutSeconds: 300,
    taskPath: null,
    waitingReason: null,
    errorCode: null,
    errorMessage: null,
    returnValues: null,
    logs,
    startedAt: null,
    finishedAt: null,
  },
});

/** GET /api/open-cloud/place's answer: ready on place 2 unless told otherwise. */
const place = (overrides: Partial<CloudPlaceStatus> = {}): CloudPlaceStatus => ({
  universeId: '1',
  placeId: '2',
  placeVersion: null,
  ready: true,
  reason: null,
  ...overrides,
});

describe('cloud run lines told live', () => {
  it('adds the lines of an event after those shown, and takes its state', () => {
    const next = applyCloudLogs(run('queued', [line('a')]), {
      executionId: 'e1',
      state: 'running',
      lines: [line('b'), line('c', 'warning')],
    });
    expect(next.cloud?.logs.map((l) => l.message)).toEqual(['a', 'b', 'c']);
    expect(next.cloud?.state).toBe('running');
    expect(next.cloudState).toBe('running');
  });

  it('keeps lines told while a fetch was on its way, when the answer was read before them', () => {
    const fetched = run('running', [line('a')]);
    const cached = run('running', [line('a'), line('b')]);
    expect(withLiveCloud(fetched, cached).cloud?.logs.map((l) => l.message)).toEqual(['a', 'b']);
  });

  it('takes the answer when it has more, or when the lines shown missed some (the socket was down)', () => {
    expect(withLiveCloud(run('running', [line('a'), line('b')]), run('running', [line('a')])).cloud?.logs).toHaveLength(
      2,
    );
    const gap = run('running', [line('a'), line('c'), line('d')]);
    const full = run('running', [line('a'), line('b')]);
    expect(withLiveCloud(full, gap).cloud?.logs.map((l) => l.message)).toEqual(['a', 'b']);
  });

  it('keeps a state told further along than the answer, and never goes back to it', () => {
    expect(withLiveCloud(run('queued', []), run('running', [])).cloud?.state).toBe('running');
    expect(withLiveCloud(run('running', []), run('queued', [])).cloud?.state).toBe('running');
    // Waiting and sending are one step: a create Roblox did not take waits again, as the answer says.
    expect(withLiveCloud(run('waiting', []), run('creating', [])).cloud?.state).toBe('waiting');
  });
});

describe('whether Run in Roblox can run', () => {
  it('names the place, and its pinned version', () => {
    expect(cloudReadiness(place())).toEqual({ kind: 'ready', placeId: '2', placeVersion: null });
    expect(cloudReadiness(place({ placeVersion: '7' }))).toEqual({ kind: 'ready', placeId: '2', placeVersion: '7' });
  });

  it("says what is missing in the server's words: a key, the scope, a place", () => {
    const noKey = place({ universeId: null, placeId: null, ready: false, reason: CLOUD_RUN_ERRORS.noKey });
    expect(cloudReadiness(noKey)).toEqual({ kind: 'blocked', reason: CLOUD_RUN_ERRORS.noKey });
    const noScope = CLOUD_RUN_ERRORS.missingScope(LUAU_WRITE_SCOPE);
    expect(cloudReadiness(place({ ready: false, reason: noScope }))).toEqual({ kind: 'blocked', reason: noScope });
    const noPlace = place({ placeId: null, ready: false, reason: CLOUD_RUN_ERRORS.noPlace });
    expect(cloudReadiness(noPlace)).toEqual({ kind: 'blocked', reason: CLOUD_RUN_ERRORS.noPlace });
    expect(cloudReadiness(place({ ready: false }))).toEqual({ kind: 'blocked', reason: CLOUD_RUN_TEXT.notReady });
  });

  it('leaves it to the server when where it runs is not known', () => {
    expect(cloudReadiness(undefined)).toEqual({ kind: 'unknown' });
    expect(cloudReadiness(place({ placeId: null }))).toEqual({ kind: 'unknown' });
  });
});
