import { notConnectedAnswer } from '../../../test/fixtures.ts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { useSession } from '../../../lib/session.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { useRunScript } from './useRunScript.ts';

type Handler = Parameters<typeof jsonFetch>[0][string];

function RunButton() {
  const { run, isRunning } = useRunScript();
  return (
    <button onClick={() => void run('s1')} disabled={isRunning}>
      Run
    </button>
  );
}

/** Runs script s1 with the execute call answered by `handler`; answers the toast and the bodies sent. */
async function runWith(handler: Handler) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'POST /api/scripts/s1/execute': (body) => {
        bodies.push(body);
        return handler(body);
      },
    }),
  );
  renderWithProviders(<RunButton />);
  await userEvent.click(screen.getByRole('button', { name: 'Run' }));
  return { shown: await screen.findByTestId('toast'), bodies };
}

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

describe('useRunScript', () => {
  it("runs the saved script in the game and toasts 'Game Not Connected' with the instructions", async () => {
    const { shown, bodies } = await runWith(() => ({
      body: notConnectedAnswer(),
    }));
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Game Not Connected')).toBeInTheDocument();
    expect(within(shown).getByText(ERRORS.gameNotConnectedInstructions)).toBeInTheDocument();
    // The default target: no target in the body.
    expect(bodies).toEqual([{}]);
  });

  it("toasts 'Script Queued' when the game takes the script and its result is still to come", async () => {
    const { shown } = await runWith(() => ({
      body: { success: true, error: null, queued: true, gameConnected: true, pending: true },
    }));
    expect(within(shown).getByText('Script Queued')).toBeInTheDocument();
    expect(within(shown).getByText('Script has been sent to your game for execution')).toBeInTheDocument();
  });

  it("reports a syntax error (400) as 'Execution Failed' with the server's text", async () => {
    const error = "Lua syntax error: 2:11: Expected identifier when parsing expression, got '='";
    const { shown } = await runWith(() => ({ status: 400, body: { error } }));
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText(`Failed to execute script. Please try again. (${error})`)).toBeInTheDocument();
  });

  it("toasts 'Script Executed' with the output, trimmed and shortened", async () => {
    const { shown } = await runWith(() => ({ body: { success: true, output: `\n${'a'.repeat(400)}\n` } }));
    expect(within(shown).getByText('Script Executed')).toBeInTheDocument();
    expect(within(shown).getByText(`${'a'.repeat(199)}…`)).toBeInTheDocument();
  });
});
