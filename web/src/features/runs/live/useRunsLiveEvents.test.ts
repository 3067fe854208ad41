import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@moonrelay/contract/runs';
import { queryClient } from '../../../lib/query-client.ts';
import { onExecutionUpdated } from './useRunsLiveEvents.ts';

const run = (scriptId: string | null): RunSummary => ({
  id: 'r1',
  scriptId,
  scriptName: scriptId ? 'Greeter' : null,
  scriptVersion: scriptId ? 1 : null,
  target: 'sandbox',
  serverId: null,
  status: 'succeeded',
  limitHit: null,
  durationMs: 3,
  startedBy: 'schedule',
  actorId: null,
  actorName: null,
  keyName: null,
  createdAt: '2026-11-29T10:00:00.000Z',
});

const scriptsStale = () => queryClient.getQueryState(['/api/scripts'])?.isInvalidated;

describe('live run events and the scripts’ counts', () => {
  it('a run of a saved script, whoever started it, has the script list (its executionCount) fetched again', () => {
    queryClient.setQueryData(['/api/scripts'], []);
    expect(scriptsStale()).toBe(false);
    onExecutionUpdated({ run: run('s1') });
    expect(scriptsStale()).toBe(true);
  });

  it('custom code moves no script’s count, so the list stays as it is', () => {
    queryClient.setQueryData(['/api/scripts'], []);
    onExecutionUpdated({ run: run(null) });
    expect(scriptsStale()).toBe(false);
  });
});
