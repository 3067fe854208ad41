import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAVE_AND_EXECUTE_DELAY_MS } from '@moonrelay/contract/constants';
import type { Script } from '@moonrelay/contract/scripts';
import { useSession } from '../../../lib/session.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptEditor } from './ScriptEditor.tsx';
import { providePointerEvent, storedScript } from './test-fixtures.ts';

// Ace cannot be driven in jsdom: a textarea stands in for it (luau-mode.test.ts uses the real Ace).
vi.mock('./LuaCodeEditor.tsx', async () => {
  const { createElement } = await import('react');
  return {
    LuaCodeEditor: (props: { value: string; onChange(value: string): void; readOnly?: boolean }) =>
      createElement('textarea', {
        'aria-label': 'Code',
        'data-testid': 'code-editor',
        value: props.value,
        readOnly: props.readOnly,
        onChange: (event: { currentTarget: HTMLTextAreaElement }) => props.onChange(event.currentTarget.value),
      }),
  };
});

providePointerEvent();

type Handler = Parameters<typeof jsonFetch>[0][string];

/** Stubs the API and records every call as "METHOD /path" with its JSON body. */
function stubApi(routes: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = [];
  const respond = jsonFetch(routes);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return respond(input, init);
  });
  return calls;
}

const sent = (calls: { key: string; body: unknown }[], key: string) => calls.filter((call) => call.key === key);

function renderEditor(script: Script | null = null) {
  const onCreated = vi.fn();
  renderWithProviders(<ScriptEditor script={script} recentGames={[]} onCreated={onCreated} />);
  return { onCreated };
}

const toast = () => screen.findByTestId('toast');

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

describe('ScriptEditor', () => {
  it('shows the create screen with the default code for a new script', () => {
    stubApi({});
    renderEditor();
    expect(screen.getByRole('heading', { name: 'Script Editor' })).toBeInTheDocument();
    expect(screen.getByText('Create a new Lua script')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('-- Write your Lua code here...');
    expect(screen.getByLabelText('Execution Type')).toHaveValue('manual');
    expect(screen.getByRole('option', { name: 'Manual Execution' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Auto-Execute on Join' })).toBeInTheDocument();
  });

  it("toasts 'Name Required' and sends nothing when the name is blank", async () => {
    const calls = stubApi({});
    renderEditor();
    await userEvent.type(screen.getByLabelText('Script Name'), '   ');
    for (const button of ['Save', 'Save & Execute']) {
      await userEvent.click(screen.getByRole('button', { name: button }));
      const shown = await toast();
      expect(within(shown).getByText('Name Required')).toBeInTheDocument();
      expect(within(shown).getByText('Please enter a name for your script.')).toBeInTheDocument();
    }
    // Ctrl/Cmd+S checks the name like the Save button, so the dialog does not open.
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(screen.getAllByText('Name Required')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("toasts 'Save First' when executing a script that is not saved yet", async () => {
    const calls = stubApi({});
    renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(within(shown).getByText('Save First')).toBeInTheDocument();
    expect(within(shown).getByText('Please save your script before executing it.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("toasts 'No Code' when the code is blank", async () => {
    const calls = stubApi({});
    renderEditor(storedScript());
    await userEvent.clear(screen.getByLabelText('Code'));
    await userEvent.type(screen.getByLabelText('Code'), '  ');
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(within(shown).getByText('No Code')).toBeInTheDocument();
    expect(within(shown).getByText('Please write some code before executing.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('creates a new script and hands it over', async () => {
    const created = storedScript({ id: 'new1', name: 'Jump', description: null, code: 'print(1)' });
    const calls = stubApi({ 'POST /api/scripts': () => ({ status: 201, body: created }) });
    const { onCreated } = renderEditor();
    await userEvent.type(screen.getByLabelText('Script Name'), '  Jump ');
    await userEvent.clear(screen.getByLabelText('Code'));
    await userEvent.type(screen.getByLabelText('Code'), 'print(1)');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    // Ctrl/Cmd+S opens the save dialog, like the Save button.
    await userEvent.click(await screen.findByRole('button', { name: 'Save Only' }));
    expect(within(await toast()).getByText('Script Created')).toBeInTheDocument();
    expect(sent(calls, 'POST /api/scripts')).toEqual([
      { key: 'POST /api/scripts', body: { name: 'Jump', description: null, code: 'print(1)', isAutoExecute: false } },
    ]);
    expect(onCreated).toHaveBeenCalledWith(created);
  });

  it("reports a failed create as 'Error' with the server's reason", async () => {
    stubApi({ 'POST /api/scripts': () => ({ status: 400, body: { error: 'Code is required' } }) });
    renderEditor();
    await userEvent.type(screen.getByLabelText('Script Name'), 'Jump');
    fireEvent.keyDown(window, { key: 'S', metaKey: true });
    // Ctrl/Cmd+S opens the save dialog, like the Save button.
    await userEvent.click(await screen.findByRole('button', { name: 'Save Only' }));
    const shown = await toast();
    expect(within(shown).getByText('Error')).toBeInTheDocument();
    expect(
      within(shown).getByText('Failed to create script. Please try again. (Code is required)'),
    ).toBeInTheDocument();
  });

  it('Save Only updates name, description, code and execution type but no game config', async () => {
    const script = storedScript({ gameId: '42', gameName: 'Tower', autoExecuteGames: { '42': { enabled: true } } });
    const calls = stubApi({ 'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }) });
    renderEditor(script);
    expect(screen.getByText('Edit your script')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Execution Type'), 'auto');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Only' }));
    expect(within(await toast()).getByText('Script Updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(calls, 'PUT /api/scripts/s1')).toEqual([
      {
        key: 'PUT /api/scripts/s1',
        body: { name: 'Fly', description: 'Lets you fly', code: 'print("fly")', isAutoExecute: true },
      },
    ]);
  });

  it('saves a typed game id from the modal and brings the execution type along', async () => {
    const script = storedScript();
    const calls = stubApi({ 'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }) });
    renderEditor(script);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Save Script Configuration')).toBeInTheDocument();
    // The toggle starts from the execution type select (manual).
    expect(within(dialog).getByRole('button', { name: 'Save Script' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Auto-execute' }));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'A specific game' }));
    await userEvent.type(within(dialog).getByLabelText('Game or universe ID'), '123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save with Auto-Execute' }));
    expect(within(await toast()).getByText('Script Saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [put] = sent(calls, 'PUT /api/scripts/s1');
    expect(put?.body).toEqual({
      name: 'Fly',
      description: 'Lets you fly',
      code: 'print("fly")',
      isAutoExecute: true,
      gameId: '123',
      gameName: 'Game 123',
      gameImageUrl: null,
      autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
    });
    expect(screen.getByLabelText('Execution Type')).toHaveValue('auto');
  });

  it("reports a failed save from the modal with 'Failed to save script' and keeps the modal open", async () => {
    stubApi({ 'PUT /api/scripts/s1': () => ({ status: 500, body: { error: 'Internal server error' } }) });
    renderEditor(storedScript());
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Script' }));
    const shown = await toast();
    expect(within(shown).getByText('Error')).toBeInTheDocument();
    expect(
      within(shown).getByText('Failed to save script. Please try again. (Internal server error)'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("reports an execution the server cannot run as 'Execution Failed' with its reason", async () => {
    // The execute endpoint is not served yet: the stub answers 404 { error: 'Not found' } like the server.
    const calls = stubApi({});
    renderEditor(storedScript());
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText('Failed to execute script. Please try again. (Not found)')).toBeInTheDocument();
    expect(sent(calls, 'POST /api/scripts/s1/execute')).toEqual([{ key: 'POST /api/scripts/s1/execute', body: {} }]);
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Error');
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Not found');
  });

  it('shows the running state, read-only code, then the output of a successful run', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const respond = jsonFetch({ 'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: 'hi' } }) });
    vi.stubGlobal('fetch', async (...args: Parameters<typeof respond>) => {
      await answered;
      return respond(...args);
    });
    renderEditor(storedScript());
    fireEvent.keyDown(window, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByText('Executing script...')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Running');
    expect(screen.getByLabelText('Code')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Executing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save & Execute' })).toBeDisabled();
    release();
    const shown = await toast();
    expect(within(shown).getByText('Script Executed')).toBeInTheDocument();
    expect(within(shown).getByText('hi')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('execution-output')).toHaveTextContent('hi');
    expect(screen.getByLabelText('Code')).not.toHaveAttribute('readonly');
  });

  it("shows 'No output' for a run without output", async () => {
    stubApi({ 'POST /api/scripts/s1/execute': () => ({ body: { success: true } }) });
    renderEditor(storedScript());
    expect(screen.getByTestId('execution-output')).toHaveTextContent('No output');
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    await waitFor(() => expect(screen.getByTestId('execution-status')).toHaveTextContent('Success'));
    expect(screen.getByTestId('execution-output')).toHaveTextContent('No output');
  });

  it('Save & Execute saves, then runs the saved script', async () => {
    const script = storedScript();
    const calls = stubApi({
      'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }),
      'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: 'flying' } }),
    });
    renderEditor(script);
    await userEvent.clear(screen.getByLabelText('Code'));
    await userEvent.type(screen.getByLabelText('Code'), 'print("up")');
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await userEvent.click(screen.getByRole('button', { name: 'Save & Execute' }));
    await waitFor(() => expect(screen.getByTestId('execution-output')).toHaveTextContent('flying'));
    expect(timers.mock.calls.some(([, delay]) => delay === SAVE_AND_EXECUTE_DELAY_MS)).toBe(true);
    timers.mockRestore();
    expect(calls.map((call) => call.key)).toEqual(['PUT /api/scripts/s1', 'POST /api/scripts/s1/execute']);
    expect(calls[0]?.body).toMatchObject({ code: 'print("up")' });
    expect(screen.queryByText(/Unsaved changes/)).not.toBeInTheDocument();
  });
});
