import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VALIDATION } from '@moonrelay/contract/messages';
import { useSession } from '../../../lib/session.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptEditor } from './ScriptEditor.tsx';
import { storedScript } from './test-fixtures.ts';

// Ace cannot be driven in jsdom: a textarea stands in for it, as in ScriptEditor.test.tsx.
vi.mock('./LuaCodeEditor.tsx', async () => {
  const { createElement } = await import('react');
  return {
    LuaCodeEditor: (props: { value: string; onChange(value: string): void; readOnly?: boolean }) =>
      createElement('textarea', {
        'aria-label': 'Code',
        value: props.value,
        readOnly: props.readOnly,
        onChange: (event: { currentTarget: HTMLTextAreaElement }) => props.onChange(event.currentTarget.value),
      }),
  };
});

type Handler = Parameters<typeof jsonFetch>[0][string];

/** Stubs the API and records each call but the syntax checks and the schedules list. */
function stubApi(routes: Record<string, Handler>) {
  const calls: { key: string; body: { code?: string; target?: string } }[] = [];
  const respond = jsonFetch({
    'POST /api/lua/check': () => ({ body: { ok: true, diagnostics: [] } }),
    ...routes,
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    if (key.endsWith('/schedules')) {
      return new Response(JSON.stringify({ schedules: [] }), { headers: { 'content-type': 'application/json' } });
    }
    // The game status (read for the editor's main action) answers 404 here: no game connected. So
    // does where cloud runs run, read for Run in Roblox's place.
    if (key !== 'POST /api/lua/check' && key !== 'GET /api/game/status' && key !== 'GET /api/open-cloud/place')
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return respond(input, init);
  });
  return calls;
}

const renderEditor = (script = storedScript()) =>
  renderWithProviders(<ScriptEditor script={script} recentGames={[]} onCreated={() => {}} />);

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

describe('ScriptEditor: messages that name the limit and the way out', () => {
  const TOO_LARGE = "Request body is too large: the limit is 1.5 MiB (a script's code may be up to 1 MiB)";

  it("shows the server's reason for a save retrying cannot help, without 'Please try again'", async () => {
    stubApi({ 'PUT /api/scripts/s1': () => ({ status: 413, body: { error: TOO_LARGE } }) });
    renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Script' }));
    const shown = await screen.findByTestId('toast');
    expect(within(shown).getByText(`Failed to save script. ${TOO_LARGE}`)).toBeInTheDocument();
    expect(shown).not.toHaveTextContent('Please try again');
  });

  it("keeps 'Please try again' where a retry may work (the server failing, a rate limit)", async () => {
    stubApi({ 'PUT /api/scripts/s1': () => ({ status: 503, body: { error: 'Moonrelay is briefly unavailable.' } }) });
    renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Script' }));
    expect(
      within(await screen.findByTestId('toast')).getByText(
        'Failed to save script. Please try again. (Moonrelay is briefly unavailable.)',
      ),
    ).toBeInTheDocument();
  });

  it('keeps a pasted 600-character name whole and refuses it with its maximum, sending nothing', async () => {
    const calls = stubApi({});
    renderEditor();
    const name = screen.getByLabelText('Script Name');
    await userEvent.clear(name);
    await userEvent.paste('n'.repeat(600));
    expect(name).toHaveValue('n'.repeat(600));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(VALIDATION.scriptNameTooLong)).toBeInTheDocument();
    expect(VALIDATION.scriptNameTooLong).toBe('Script name must be at most 200 characters');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.map((call) => call.key)).toEqual([]);
  });

  it('offers a dry run of the same code when a sandbox run fails on a Roblox API', async () => {
    const code = 'local part = Instance.new("Part")';
    const message = 'Instance is part of Roblox, not plain Lua: Roblox APIs are available in a dry run.';
    const calls = stubApi({
      'POST /api/scripts/execute': (body) =>
        (body as { target: string }).target === 'sandbox'
          ? {
              body: {
                success: false,
                output: '',
                error: "script:1: attempt to index a nil value (global 'Instance')",
                target: 'sandbox',
                executionId: 'e1',
                durationMs: 3,
                limit: null,
                hint: { kind: 'dry-run', global: 'Instance', message },
              },
            }
          : {
              body: {
                success: true,
                output: '',
                error: null,
                target: 'dry-run',
                executionId: 'e2',
                durationMs: 9,
                limit: null,
                dryRun: null,
              },
            },
    });
    renderEditor(storedScript({ code }));
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    const hint = await screen.findByTestId('execution-hint');
    expect(hint).toHaveTextContent(message);
    // The code on screen changes meanwhile: the button dry-runs the code that failed.
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'print("edited")' } });
    await userEvent.click(within(hint).getByRole('button', { name: 'Dry run this code' }));
    await waitFor(() => expect(screen.getByTestId('execution-target')).toHaveTextContent('Dry run'));
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Success');
    expect(screen.queryByTestId('execution-hint')).not.toBeInTheDocument();
    const runs = calls.filter((call) => call.key === 'POST /api/scripts/execute');
    expect(runs.map((call) => call.body).map(({ code: ran, target }) => ({ code: ran, target }))).toEqual([
      { code, target: 'sandbox' },
      { code, target: 'dry-run' },
    ]);
  });
});
