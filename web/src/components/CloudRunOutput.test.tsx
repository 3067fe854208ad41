import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloudRun } from '@moonrelay/contract/cloud-runs';
import type { Run } from '@moonrelay/contract/runs';
import { queryClient } from '../lib/query-client.ts';
import { onCloudLogs, runQuery } from '../lib/run-detail.ts';
import { signInAs } from '../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../test/render.tsx';
import { CloudRunOutput } from './CloudRunOutput.tsx';

const cloudRun = (cloud: Partial<CloudRun>, run: Partial<Run> = {}): Run => ({
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
  cloudState: cloud.state ?? 'running',
  createdAt: '2026-11-29T10:00:00.000Z',
  code: 'print("one")',
  codeComplete: true,
  output: '',
  error: null,
  ...run,
  cloud: {
    state: 'running',
    universeId: '4200000001',
    placeId: '4200000002',
    placeVersion: null,
    timeoutSeconds: 60,
    taskPath: 'universes/4200000001/places/4200000002/luau-execution-session-tasks/t1',
    waitingReason: null,
    errorCode: null,
    errorMessage: null,
    returnValues: null,
    logs: [],
    startedAt: null,
    finishedAt: null,
    ...cloud,
  },
});

let stored: Run;

beforeEach(() => {
  signInAs();
  stored = cloudRun({ state: 'running', logs: [{ message: 'one', type: 'output', time: null }] });
  vi.stubGlobal('fetch', jsonFetch({ 'GET /api/executions/e1': () => ({ body: stored }) }));
});
afterEach(() => vi.unstubAllGlobals());

const lines = () => within(screen.getByRole('log', { name: 'Roblox log' })).getAllByRole('listitem');

describe('CloudRunOutput', () => {
  it('follows a cloud run live: its state, each line as it is told, then what it returned', async () => {
    renderWithProviders(<CloudRunOutput executionId="e1" />);
    expect(screen.getByTestId('cloud-state')).toHaveTextContent('Waiting for Roblox');
    await waitFor(() => expect(screen.getByTestId('cloud-state')).toHaveTextContent('Running in Roblox'));
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Roblox');
    expect(screen.getByTestId('cloud-place')).toHaveTextContent('Place 4200000002 · newest version · time limit 1 min');
    expect(lines().map((line) => line.textContent)).toEqual(['one']);

    act(() =>
      onCloudLogs({
        executionId: 'e1',
        state: 'running',
        lines: [{ message: 'careful', type: 'warning', time: null }],
      }),
    );
    await waitFor(() => expect(lines().map((line) => line.textContent)).toEqual(['one', 'Warning: careful']));
    // Another run's lines are not this one's.
    act(() =>
      onCloudLogs({ executionId: 'e2', state: 'running', lines: [{ message: 'other', type: 'output', time: null }] }),
    );
    expect(lines()).toHaveLength(2);
    expect(screen.queryByTestId('execution-duration')).not.toBeInTheDocument();

    // The end: the run is fetched again (execution:updated) with what it returned.
    stored = cloudRun(
      {
        state: 'succeeded',
        logs: [
          { message: 'one', type: 'output', time: null },
          { message: 'careful', type: 'warning', time: null },
        ],
        returnValues: [7],
      },
      { status: 'succeeded', durationMs: 1260 },
    );
    act(() => onCloudLogs({ executionId: 'e1', state: 'succeeded', lines: [] }));
    await waitFor(() => expect(screen.getByTestId('cloud-state')).toHaveTextContent('Succeeded'));
    await act(() => queryClient.invalidateQueries({ queryKey: runQuery('e1').queryKey }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Return values' })).toHaveTextContent('7'));
    expect(screen.getByTestId('execution-duration')).toHaveTextContent('Ran for 1.26 s');
    expect(screen.getByRole('link', { name: 'View run' })).toHaveAttribute('href', '/runs?id=e1');
  });

  it('fetches the run again when lines are told while its first answer is on its way', async () => {
    let answer: (() => void) | undefined;
    const respond = jsonFetch({ 'GET /api/executions/e1': () => ({ body: stored }) });
    let fetches = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      fetches += 1;
      // The first answer was read before the line below was kept: it does not have it.
      if (fetches === 1) {
        const early = await respond(input, init);
        await new Promise<void>((resolve) => (answer = resolve));
        return early;
      }
      return respond(input, init);
    });
    renderWithProviders(<CloudRunOutput executionId="e1" />);
    await waitFor(() => expect(answer).toBeDefined());
    stored = cloudRun({
      state: 'running',
      logs: [
        { message: 'one', type: 'output', time: null },
        { message: 'two', type: 'output', time: null },
      ],
    });
    act(() =>
      onCloudLogs({ executionId: 'e1', state: 'running', lines: [{ message: 'two', type: 'output', time: null }] }),
    );
    answer!();
    await waitFor(() => expect(lines().map((line) => line.textContent)).toEqual(['one', 'two']));
    expect(fetches).toBe(2);
  });
});
