import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloudRun } from '@moonrelay/contract/cloud-runs';
import type { Run } from '@moonrelay/contract/runs';
import { runQuery } from '../lib/run-detail.ts';
import { signInAs } from '../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../test/render.tsx';
import { CloudRunView } from './CloudRunView.tsx';

const cloud = (overrides: Partial<CloudRun> = {}): CloudRun => ({
  state: 'running',
  universeId: '4200000001',
  placeId: '4200000002',
  placeVersion: null,
  timeoutSeconds: 300,
  taskPath: 'universes/4200000001/places/4200000002/luau-execution-session-tasks/t1',
  waitingReason: null,
  errorCode: null,
  errorMessage: null,
  returnValues: null,
  logs: [],
  startedAt: '2026-11-29T10:00:01.000Z',
  finishedAt: null,
  ...overrides,
});

const LINES: CloudRun['logs'] = [
  { message: 'hello from Roblox', type: 'output', time: '2026-11-29T10:00:02.000Z' },
  { message: 'careful', type: 'warning', time: '2026-11-29T10:00:02.100Z' },
  { message: 'TaskScript:3: boom', type: 'error', time: null },
];

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('CloudRunView', () => {
  it("lists Roblox's lines in order, each marked with its type, and where the run ran", () => {
    renderWithProviders(<CloudRunView executionId="e1" cloud={cloud({ logs: LINES, placeVersion: '7' })} />);
    const log = screen.getByRole('log', { name: 'Roblox log' });
    const lines = within(log).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'hello from Roblox',
      'Warning: careful',
      'Error: TaskScript:3: boom',
    ]);
    // The colour comes from the list's style for each type, not from a style on the line.
    expect(lines.map((line) => line.dataset.type)).toEqual(['output', 'warning', 'error']);
    expect(lines.every((line) => !line.getAttribute('style'))).toBe(true);
    expect(screen.getByTestId('cloud-state')).toHaveTextContent('Running in Roblox');
    expect(screen.getByTestId('cloud-place')).toHaveTextContent('4200000002 · version 7');
    expect(screen.getByText('5 min')).toBeInTheDocument();
    expect(screen.queryByTestId('cloud-return-values')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cloud-error')).not.toBeInTheDocument();
  });

  it('says no lines came yet while the run goes on, and that none came once it ended', () => {
    renderWithProviders(<CloudRunView executionId="e1" cloud={cloud({ state: 'queued' })} />);
    expect(screen.getByTestId('cloud-log-empty')).toHaveTextContent('No lines yet');
    cleanup();
    renderWithProviders(<CloudRunView executionId="e1" cloud={cloud({ state: 'succeeded', returnValues: [] })} />);
    expect(screen.getByTestId('cloud-log-empty')).toHaveTextContent('Roblox logged no lines.');
    expect(screen.getByTestId('cloud-return-values')).toHaveTextContent('The script returned nothing.');
  });

  it('shows what the script returned as formatted JSON', () => {
    renderWithProviders(
      <CloudRunView
        executionId="e1"
        cloud={cloud({ state: 'succeeded', logs: LINES.slice(0, 1), returnValues: [7, { coins: 3 }, null] })}
      />,
    );
    const values = screen.getByRole('region', { name: 'Return values' });
    expect(values.textContent).toBe(JSON.stringify([7, { coins: 3 }, null], null, 2));
    expect(screen.getByTestId('cloud-state')).toHaveTextContent('Succeeded');
  });

  it("shows Roblox's error code and its message, which names the line", () => {
    renderWithProviders(
      <CloudRunView
        executionId="e1"
        cloud={cloud({
          state: 'failed',
          logs: LINES,
          errorCode: 'SCRIPT_ERROR',
          errorMessage: 'TaskScript:3: boom',
        })}
      />,
    );
    const error = screen.getByTestId('cloud-error');
    expect(error).toHaveTextContent('SCRIPT_ERROR');
    expect(error).toHaveTextContent('TaskScript:3: boom');
    expect(screen.getByTestId('cloud-state')).toHaveTextContent('Failed');
  });

  it('offers Cancel only while the run waits in Moonrelay, and cancels it there', async () => {
    const requests: string[] = [];
    const waiting = cloud({
      state: 'waiting',
      taskPath: null,
      startedAt: null,
      waitingReason: 'Waiting for Roblox: 10 unfinished tasks in place 4200000002, its limit',
    });
    const cancelled: Run = {
      id: 'e1',
      scriptId: null,
      scriptName: null,
      scriptVersion: null,
      target: 'cloud',
      serverId: null,
      status: 'failed',
      limitHit: null,
      durationMs: 0,
      startedBy: 'user',
      actorId: null,
      actorName: null,
      keyName: null,
      cloudState: 'cancelled',
      createdAt: '2026-11-29T10:00:00.000Z',
      code: 'print(1)',
      codeComplete: true,
      output: '',
      error: 'CANCELLED: Cancelled before it was sent to Roblox',
      cloud: {
        ...waiting,
        state: 'cancelled',
        waitingReason: null,
        errorCode: 'CANCELLED',
        errorMessage: 'Cancelled before it was sent to Roblox',
      },
    };
    const respond = jsonFetch({ 'POST /api/executions/e1/cancel': () => ({ body: cancelled }) });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
      return respond(input, init);
    });

    const { queryClient } = renderWithProviders(<CloudRunView executionId="e1" cloud={waiting} />);
    expect(screen.getByTestId('cloud-waiting-reason')).toHaveTextContent('10 unfinished tasks in place 4200000002');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(requests).toEqual(['POST /api/executions/e1/cancel']));
    // The run as it ended is what the screens show next.
    await waitFor(() => expect(queryClient.getQueryData(runQuery('e1').queryKey)).toEqual(cancelled));
    expect(await screen.findByText('Cloud run cancelled')).toBeInTheDocument();

    for (const state of ['creating', 'queued', 'running', 'cancelled'] as const) {
      cleanup();
      renderWithProviders(<CloudRunView executionId="e1" cloud={{ ...waiting, state }} />);
      expect(screen.queryByRole('button', { name: 'Cancel run' }), state).not.toBeInTheDocument();
    }
  });

  it("says why Cancel fails once Roblox has the run (the server's 409)", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/executions/e1/cancel': () => ({
          status: 409,
          body: { error: 'Only a cloud run still waiting in Moonrelay (not yet sent to Roblox) can be cancelled' },
        }),
      }),
    );
    renderWithProviders(<CloudRunView executionId="e1" cloud={cloud({ state: 'waiting' })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Could not cancel the run');
    expect(toast).toHaveTextContent('Only a cloud run still waiting in Moonrelay');
  });
});
