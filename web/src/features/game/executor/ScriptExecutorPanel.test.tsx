import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import type { GameStatus } from '@moonrelay/contract/game';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs, testScript, notConnectedAnswer } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { useLiveStore } from '../live/live-store.ts';
import { onExecutionResult } from '../live/useLiveEvents.ts';
import { DISCONNECTED, connectedStatus } from '../../../test/test-game.ts';
import { CONNECTION_TEST_SCRIPT } from './QuickTest.tsx';
import { ScriptExecutorPanel } from './ScriptExecutorPanel.tsx';

type Handler = Parameters<typeof jsonFetch>[0][string];

const SCRIPTS = [
  testScript({ id: 's1', name: 'Fly', description: 'Lets you fly' }),
  testScript({ id: 's2', name: 'Noclip', description: null }),
];

/** A game run's answer as the server gives it when the result came back within the wait. */
const ran = (fields: { success: boolean; output?: string; error?: string | null }) => ({
  body: {
    queued: true,
    gameConnected: true,
    target: 'game',
    executionId: 'e1',
    durationMs: 12,
    output: '',
    error: null,
    ...fields,
  },
});

function renderExecutor({
  status = connectedStatus(),
  execute = () => ran({ success: true, output: 'hi\n' }),
}: { status?: GameStatus; execute?: Handler } = {}) {
  const calls: { route: string; body: unknown }[] = [];
  const recorded =
    (route: string): Handler =>
    (body) => {
      calls.push({ route, body });
      return execute(body);
    };
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/game/status': () => ({ body: status }),
      'POST /api/scripts/execute': recorded('code'),
      'POST /api/scripts/s1/execute': recorded('s1'),
    }),
  );
  renderWithProviders(<ScriptExecutorPanel scripts={SCRIPTS} scriptsFailed={false} />);
  return { calls };
}

const quickTest = () => screen.getByLabelText('Quick Test');
const executeCustomCode = () => screen.getByRole('button', { name: 'Execute Custom Code' });
const toast = () => screen.findByTestId('toast');

beforeEach(() => {
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
  useLiveStore.getState().clear();
});

describe('ScriptExecutorPanel', () => {
  it('lists the scripts with their descriptions, and runs one in the game', async () => {
    const { calls } = renderExecutor();
    const [fly, noclip] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(fly).getByText('Lets you fly')).toBeInTheDocument();
    expect(within(noclip).getByText('No description')).toBeInTheDocument();

    await userEvent.click(within(fly).getByRole('button', { name: 'Run Fly' }));
    expect(within(await toast()).getByText('Script Executed')).toBeInTheDocument();
    expect(calls).toEqual([{ route: 's1', body: { target: 'game' } }]);
    expect(screen.getByTestId('execution-output')).toHaveTextContent('hi');
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Success');
    expect(screen.getByRole('link', { name: 'View run' })).toHaveAttribute('href', '/runs?id=e1');
  });

  it('starts Quick Test with a greeting, and disables Execute Custom Code while the code is blank', async () => {
    renderExecutor();
    expect(quickTest()).toHaveValue('print("Hello from Moonrelay!")');
    expect(executeCustomCode()).toBeEnabled();
    await userEvent.clear(quickTest());
    await userEvent.type(quickTest(), '   {enter}  ');
    expect(executeCustomCode()).toBeDisabled();
    await userEvent.type(quickTest(), 'print(1)');
    expect(executeCustomCode()).toBeEnabled();
  });

  it("runs the connection test script: 'Connected!' and the green box when the output says connected", async () => {
    const { calls } = renderExecutor({
      execute: () => ran({ success: true, output: 'Moonrelay CONNECTED to Place1 (place 1818)\n' }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Load Connection Test Script' }));
    expect(quickTest()).toHaveValue(CONNECTION_TEST_SCRIPT);
    await userEvent.click(executeCustomCode());

    const shown = await toast();
    expect(within(shown).getByText('Connected!')).toBeInTheDocument();
    expect(within(shown).getByText('Script executed successfully and connection established.')).toBeInTheDocument();
    expect(screen.getByTestId('connection-established')).toHaveTextContent('Connection established successfully!');
    expect(calls).toEqual([{ route: 'code', body: { code: CONNECTION_TEST_SCRIPT, target: 'game' } }]);
  });

  it('shows no connection box for a successful run whose output does not say connected', async () => {
    renderExecutor({ execute: () => ran({ success: true, output: 'Hello from Moonrelay!\n' }) });
    await userEvent.click(executeCustomCode());
    expect(within(await toast()).getByText('Script Executed')).toBeInTheDocument();
    expect(screen.queryByTestId('connection-established')).not.toBeInTheDocument();
  });

  it("answers 'Game Not Connected' with the instructions when no game is connected", async () => {
    renderExecutor({
      status: DISCONNECTED,
      execute: () => ({
        body: notConnectedAnswer(),
      }),
    });
    await userEvent.click(executeCustomCode());
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Game Not Connected')).toBeInTheDocument();
    expect(within(shown).getByText(ERRORS.gameNotConnectedInstructions)).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent(ERRORS.gameNotConnectedInstructions);
  });

  it("says 'Script Sent' for a pending run, and fills the output in when its result arrives", async () => {
    renderExecutor({
      execute: () => ({
        body: {
          success: true,
          queued: true,
          gameConnected: true,
          pending: true,
          output: '',
          error: null,
          target: 'game',
          executionId: 'e42',
          durationMs: 0,
        },
      }),
    });
    await userEvent.click(executeCustomCode());
    const sent = await toast();
    expect(within(sent).getByText('Script Sent')).toBeInTheDocument();
    expect(within(sent).getByText('Script queued for execution')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Queued');
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Script queued for execution');

    // Another run's result changes nothing.
    onExecutionResult({ userId: 'u1', execution: { ...result('e7'), output: 'other run\n' } });
    // The result, as the live socket delivers it.
    onExecutionResult({ userId: 'u1', execution: result('e42') });
    await waitFor(() => expect(screen.getByTestId('execution-status')).toHaveTextContent('Success'));
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Hello from Moonrelay!');
    expect(within(await toast()).getByText('Script Executed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View run' })).toHaveAttribute('href', '/runs?id=e42');
  });

  it("reports a script the server could not run: output 'Failed to execute script', toast 'Execution Failed'", async () => {
    renderExecutor({ execute: () => ({ status: 500, body: { error: 'Internal server error' } }) });
    await userEvent.click(screen.getByRole('button', { name: 'Run Fly' }));
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(
      within(shown).getByText('Failed to execute the script. Please try again. (Internal server error)'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Failed to execute script');
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Error');
  });

  it("reports custom code the server refused: output 'Failed to execute custom code'", async () => {
    const error = 'Lua syntax error: 1:7: Expected identifier';
    renderExecutor({ execute: () => ({ status: 400, body: { error } }) });
    await userEvent.click(executeCustomCode());
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(
      within(shown).getByText(`Failed to execute the custom code. Please try again. (${error})`),
    ).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Failed to execute custom code');
    expect(screen.getByTestId('execution-error')).toHaveTextContent(error);
  });

  it("reports the game's own error for a run that failed in the game", async () => {
    renderExecutor({ execute: () => ran({ success: false, output: 'before\n', error: 'attempt to index nil' }) });
    await userEvent.click(executeCustomCode());
    expect(
      within(await toast()).getByText('Failed to execute the custom code. Please try again. (attempt to index nil)'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent('before');
    expect(screen.getByTestId('execution-error')).toHaveTextContent('attempt to index nil');
  });
});

describe('the executor game status', () => {
  it("shows the connected flag, and the player's position rounded with the game data", async () => {
    renderExecutor();
    const panel = screen.getByRole('region', { name: 'Game Status' });
    expect(await within(panel).findByTestId('executor-connected')).toHaveTextContent('Yes');
    expect(within(panel).getByLabelText('X')).toHaveValue('12');
    expect(within(panel).getByLabelText('Y')).toHaveValue('6');
    expect(within(panel).getByLabelText('Z')).toHaveValue('-7');
    expect(within(panel).getByTestId('game-data')).toHaveTextContent('builderman');
    expect(within(panel).getByTestId('game-data')).toHaveTextContent('1818');
  });

  it('without a game shows not connected, no ping and the spawn point 0, 50, 0', async () => {
    renderExecutor({ status: DISCONNECTED });
    const panel = screen.getByRole('region', { name: 'Game Status' });
    expect(await within(panel).findByTestId('executor-connected')).toHaveTextContent('No');
    expect(within(panel).getByText('Never')).toBeInTheDocument();
    expect(within(panel).getByLabelText('X')).toHaveValue('0');
    expect(within(panel).getByLabelText('Y')).toHaveValue('50');
    expect(within(panel).getByLabelText('Z')).toHaveValue('0');
    expect(within(panel).getByText(/has not reported a position/)).toBeInTheDocument();
    expect(within(panel).getByText('No game data yet.')).toBeInTheDocument();
  });
});

function result(executionId: string) {
  return {
    success: true,
    output: 'Hello from Moonrelay!\n',
    error: null,
    target: 'game' as const,
    executionId,
    durationMs: 3,
  };
}
