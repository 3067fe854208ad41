import { notConnectedAnswer } from '../../../test/fixtures.ts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { SAVE_AND_EXECUTE_DELAY_MS } from '@moonrelay/contract/constants';
import { ERRORS } from '@moonrelay/contract/messages';
import { CLOUD_RUN_ERRORS, type CloudPlaceStatus } from '@moonrelay/contract/cloud-runs';
import type { Script } from '@moonrelay/contract/scripts';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { CLOUD_RUN_TEXT } from '../../../lib/cloud-run.ts';
import { useSession } from '../../../lib/session.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptEditor } from './ScriptEditor.tsx';
import { storedScript } from './test-fixtures.ts';
import { CHECK_DEBOUNCE_MS } from './useLuaCheck.ts';
import type { GameStatus } from '@moonrelay/contract/game';
import { connectedStatus, DISCONNECTED } from '../../../test/test-game.ts';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';

// Ace cannot be driven in jsdom: a textarea stands in for it (luau-mode.test.ts and
// LuaCodeEditor.test.tsx use the real Ace). The diagnostics it is given are listed beside it.
vi.mock('./LuaCodeEditor.tsx', async () => {
  const { createElement, Fragment } = await import('react');
  return {
    LuaCodeEditor: (props: {
      value: string;
      onChange(value: string): void;
      readOnly?: boolean;
      diagnostics?: readonly { line: number; column: number; message: string }[];
    }) =>
      createElement(
        Fragment,
        null,
        createElement('textarea', {
          'aria-label': 'Code',
          'data-testid': 'code-editor',
          value: props.value,
          readOnly: props.readOnly,
          onChange: (event: { currentTarget: HTMLTextAreaElement }) => props.onChange(event.currentTarget.value),
        }),
        createElement(
          'ul',
          { 'data-testid': 'editor-diagnostics' },
          (props.diagnostics ?? []).map((d) =>
            createElement('li', { key: `${d.line}:${d.column}` }, `${d.line}:${d.column} ${d.message}`),
          ),
        ),
      ),
  };
});

type Handler = Parameters<typeof jsonFetch>[0][string];

const CHECK = 'POST /api/lua/check';
/** The code of every syntax check the editor asked for (kept apart from `calls`: it checks as you type). */
let checks: string[] = [];

/**
 * Stubs the API and records every call as "METHOD /path" with its JSON body; syntax checks go to
 * `checks`, the Schedules section's list is answered empty and the game status with `gameStatus`
 * (no game connected unless a test says otherwise). Without a check route the checker answers 404, and the editor shows a neutral note.
 */
const respondJson = async (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const respondSchedules = () => respondJson({ schedules: [] });
const GAME_STATUS = 'GET /api/game/status';
let gameStatus: GameStatus = DISCONNECTED;
/**
 * Run in Roblox reads where cloud runs run (GET /api/open-cloud/place): no key saved unless a test
 * says otherwise; null answers 404 (it could not be read).
 */
const CLOUD_PLACE = 'GET /api/open-cloud/place';
const NO_CLOUD_KEY: CloudPlaceStatus = {
  universeId: null,
  placeId: null,
  placeVersion: null,
  ready: false,
  reason: CLOUD_RUN_ERRORS.noKey,
};
let cloudPlace: CloudPlaceStatus | null = NO_CLOUD_KEY;

function stubApi(routes: Record<string, Handler>, { hold }: { hold?: Promise<void> } = {}) {
  const calls: { key: string; body: unknown }[] = [];
  const respond = jsonFetch(routes);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (key === CHECK) checks.push((body as { code: string }).code);
    // A saved script's Schedules section loads its schedules; that is not what these tests look at.
    else if (key.startsWith('GET /api/scripts/') && key.endsWith('/schedules')) return respondSchedules();
    // Whether a game is connected decides the main action; it is not what most tests look at.
    else if (key === GAME_STATUS) return respondJson(gameStatus);
    else if (key === CLOUD_PLACE && cloudPlace) return respondJson(cloudPlace);
    else {
      calls.push({ key, body });
      // Other calls answer once `hold` settles, so a test can look at the screen meanwhile.
      await hold;
    }
    return respond(input, init);
  });
  return calls;
}

/** A promise and the function that settles it. */
function gate() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

type Diagnostic = { line: number; column: number; endLine: number; endColumn: number; message: string };
const diagnostic = (line: number, column: number, message: string): Diagnostic => ({
  line,
  column,
  endLine: line,
  endColumn: column + 1,
  message,
});

/** A checker that finds errors in code containing '= =' and nothing else. */
const checker: Handler = (body) => {
  const { code } = body as { code: string };
  const diagnostics = code.includes('= =')
    ? [
        diagnostic(1, 9, "Expected identifier when parsing expression, got '='"),
        diagnostic(1, 11, 'Incomplete statement: expected assignment or a function call'),
      ]
    : [];
  return { body: { ok: diagnostics.length === 0, diagnostics } };
};

const summary = () => screen.getByTestId('syntax-summary');

/** Replaces the code in one change, as a paste does. */
const setCode = (code: string) => fireEvent.change(screen.getByLabelText('Code'), { target: { value: code } });

const sent = (calls: { key: string; body: unknown }[], key: string) => calls.filter((call) => call.key === key);

function renderEditor(script: Script | null = null) {
  const onCreated = vi.fn();
  renderWithProviders(<ScriptEditor script={script} recentGames={[]} onCreated={onCreated} />);
  return { onCreated };
}

const toast = () => screen.findByTestId('toast');

beforeEach(() => {
  checks = [];
  gameStatus = DISCONNECTED;
  cloudPlace = NO_CLOUD_KEY;
  useSession.setState({ token: 'mrs_test' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

describe('ScriptEditor', () => {
  it('shows the create screen with the default code for a new script', () => {
    stubApi({});
    renderEditor();
    expect(screen.getByRole('heading', { name: 'Script Editor' })).toBeInTheDocument();
    expect(screen.getByText('Create a new Lua script')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('-- Write your Lua code here...\n');
    expect(screen.getByLabelText('Execution Type')).toHaveValue('manual');
    expect(screen.getByRole('option', { name: 'Manual Execution' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Auto-Execute on Join' })).toBeInTheDocument();
    // Nothing to share or copy before the first save.
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy to team' })).not.toBeInTheDocument();
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
    await userEvent.click(await screen.findByRole('button', { name: 'Save Script' }));
    expect(within(await toast()).getByText('Script Saved')).toBeInTheDocument();
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
    await userEvent.click(await screen.findByRole('button', { name: 'Save Script' }));
    const shown = await toast();
    expect(within(shown).getByText('Error')).toBeInTheDocument();
    // A refusal retrying cannot pass: the server's reason, without "Please try again".
    expect(within(shown).getByText('Failed to save script. Code is required')).toBeInTheDocument();
  });

  it('Keep Current Games updates name, description, code and execution type but no game config', async () => {
    const script = storedScript({
      isAutoExecute: true,
      gameId: '42',
      gameName: 'Tower',
      autoExecuteGames: { '42': { enabled: true } },
    });
    const calls = stubApi({ 'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }) });
    renderEditor(script);
    expect(screen.getByText('Edit your script')).toBeInTheDocument();
    expect(screen.getByLabelText('Execution Type')).toHaveValue('auto');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('kept-games')).toHaveTextContent('as they are now: Game 42.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep Current Games' }));
    expect(within(await toast()).getByText('Script Saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(calls, 'PUT /api/scripts/s1')).toEqual([
      {
        key: 'PUT /api/scripts/s1',
        body: { name: 'Fly', description: 'Lets you fly', code: 'print("fly")', isAutoExecute: true },
      },
    ]);
  });

  it("saves a manual script from the modal with the form's execution type and no game config", async () => {
    const script = storedScript({ isAutoExecute: true, gameId: '42', autoExecuteGames: { '42': { enabled: true } } });
    const calls = stubApi({ 'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }) });
    renderEditor(script);
    await userEvent.selectOptions(screen.getByLabelText('Execution Type'), 'manual');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('save-execution-type')).toHaveTextContent('Manual Execution');
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Script' }));
    expect(within(await toast()).getByText('Script Saved')).toBeInTheDocument();
    expect(sent(calls, 'PUT /api/scripts/s1')).toEqual([
      {
        key: 'PUT /api/scripts/s1',
        body: { name: 'Fly', description: 'Lets you fly', code: 'print("fly")', isAutoExecute: false },
      },
    ]);
  });

  it('saves a typed game id from the modal and brings the execution type along', async () => {
    const script = storedScript();
    const calls = stubApi({ 'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }) });
    renderEditor(script);
    // The execution type is chosen in the form; the modal asks only where it auto-executes.
    await userEvent.selectOptions(screen.getByLabelText('Execution Type'), 'auto');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Save Script Configuration')).toBeInTheDocument();
    expect(within(dialog).getByTestId('save-execution-type')).toHaveTextContent('Auto-Execute on Join');
    // The script did not auto-execute before: there are no games to keep.
    expect(within(dialog).queryByRole('button', { name: 'Keep Current Games' })).not.toBeInTheDocument();
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
    gameStatus = connectedStatus();
    const { held, release } = gate();
    stubApi({ 'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: 'hi' } }) }, { hold: held });
    renderEditor(storedScript());
    // With a game connected, Ctrl/Cmd+Enter executes the saved script.
    await waitFor(() => expect(screen.getByTestId('editor-shortcuts')).toHaveTextContent('Enter executes'));
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

const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('ScriptEditor main action', () => {
  const mainAction = () => screen.getAllByRole('button').filter((button) => button.hasAttribute('data-main-action'));
  const sandboxAnswer = { success: true, output: 'sandboxed\n', error: null, target: 'sandbox', executionId: 'e1' };

  it('is a run in the sandbox while no game is connected, by button and Ctrl/Cmd+Enter', async () => {
    const calls = stubApi({ 'POST /api/scripts/execute': () => ({ body: sandboxAnswer }) });
    renderEditor(storedScript());
    expect(mainAction().map((button) => button.textContent?.trim())).toEqual(['Run in Sandbox']);
    expect(screen.getByRole('button', { name: 'Save & Execute' })).toHaveAttribute(
      'title',
      'Saves, then runs the script in your game: connect a game first',
    );
    expect(screen.getByTestId('editor-shortcuts')).toHaveTextContent('Enter runs in the sandbox');
    fireEvent.keyDown(window, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('execution-output')).toHaveTextContent('sandboxed'));
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Sandbox');
    // The saved script's id goes along: unchanged, the run counts as the script's.
    expect(calls).toEqual([
      { key: 'POST /api/scripts/execute', body: { code: 'print("fly")', target: 'sandbox', scriptId: 's1' } },
    ]);
  });

  it('is Save & Execute with a game connected, and Ctrl/Cmd+Enter executes the saved script', async () => {
    gameStatus = connectedStatus();
    const calls = stubApi({ 'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: 'in game' } }) });
    renderEditor(storedScript());
    await waitFor(() => expect(mainAction().map((button) => button.textContent?.trim())).toEqual(['Save & Execute']));
    expect(screen.getByRole('button', { name: 'Save & Execute' })).not.toHaveAttribute('title');
    expect(screen.getByTestId('editor-shortcuts')).toHaveTextContent('Enter executes');
    fireEvent.keyDown(window, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('execution-output')).toHaveTextContent('in game'));
    expect(calls).toEqual([{ key: 'POST /api/scripts/s1/execute', body: {} }]);
  });

  it('brings the output into view as a run starts and again when it ends', async () => {
    // jsdom lays nothing out and has no scrollIntoView: this one records what was brought into view.
    const scrolled: Element[] = [];
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: Element) {
        scrolled.push(this);
      },
    });
    onTestFinished(() => {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    });
    const { held, release } = gate();
    stubApi({ 'POST /api/scripts/execute': () => ({ body: sandboxAnswer }) }, { hold: held });
    renderEditor(storedScript());
    expect(scrolled).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    await waitFor(() => expect(scrolled).toHaveLength(1));
    const pane = screen.getByTestId('execution-output');
    expect(scrolled[0]?.contains(pane)).toBe(true);
    release();
    await waitFor(() => expect(pane).toHaveTextContent('sandboxed'));
    expect(scrolled).toHaveLength(2);
    expect(scrolled[1]).toBe(scrolled[0]);
  });
});

describe('ScriptEditor syntax diagnostics', () => {
  it('checks the code once typing pauses and shows the errors under the editor and in it', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    stubApi({ [CHECK]: checker });
    renderEditor(storedScript({ code: '' }));
    await userEvent.type(screen.getByLabelText('Code'), 'local x = = 1');
    await waitFor(() =>
      expect(summary()).toHaveTextContent(
        "2 syntax errors — line 1: Expected identifier when parsing expression, got '='",
      ),
    );
    // One check, of the code as it stood when typing paused; none per keystroke.
    expect(checks).toEqual(['local x = = 1']);
    expect(timers.mock.calls.some(([, delay]) => delay === CHECK_DEBOUNCE_MS)).toBe(true);
    expect(CHECK_DEBOUNCE_MS).toBe(300);
    timers.mockRestore();
    const shown = within(screen.getByTestId('editor-diagnostics')).getAllByRole('listitem');
    expect(shown.map((item) => item.textContent)).toEqual([
      "1:9 Expected identifier when parsing expression, got '='",
      '1:11 Incomplete statement: expected assignment or a function call',
    ]);

    setCode('local x = 1');
    await waitFor(() => expect(summary()).toHaveTextContent('No syntax errors'));
    expect(screen.getByTestId('editor-diagnostics')).toBeEmptyDOMElement();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it("shows only the latest code's diagnostics, whatever order the answers come in", async () => {
    const answers = new Map<string, (response: Response) => void>();
    vi.stubGlobal('fetch', (_input: RequestInfo | URL, init?: RequestInit) => {
      const { code } = JSON.parse(String(init?.body)) as { code: string };
      return new Promise<Response>((resolve) => answers.set(code, resolve));
    });
    // The answer lands asynchronously, as a real one would; waitFor below observes its effect.
    const answer = async (code: string, diagnostics: Diagnostic[]) =>
      answers.get(code)?.(Response.json({ ok: diagnostics.length === 0, diagnostics }));
    renderEditor();
    setCode('local x = = 1');
    await waitFor(() => expect(answers.has('local x = = 1')).toBe(true));
    setCode('local x = 1');
    await waitFor(() => expect(answers.has('local x = 1')).toBe(true));

    // The newer code's answer comes first, then the older one's: the older one is dropped.
    await answer('local x = 1', []);
    await waitFor(() => expect(summary()).toHaveTextContent('No syntax errors'));
    await answer('local x = = 1', [diagnostic(1, 9, "Expected identifier when parsing expression, got '='")]);
    await pause(50);
    expect(summary()).toHaveTextContent('No syntax errors');
    expect(screen.getByTestId('editor-diagnostics')).toBeEmptyDOMElement();

    // An answer for code that has since changed again is dropped too.
    setCode('local y = = 2');
    await waitFor(() => expect(answers.has('local y = = 2')).toBe(true));
    setCode('local y = 2');
    await answer('local y = = 2', [diagnostic(1, 9, "Expected identifier when parsing expression, got '='")]);
    await pause(50);
    expect(summary()).toHaveTextContent('No syntax errors');
  });

  it('does not check blank code, and clears the errors when the code becomes blank', async () => {
    stubApi({ [CHECK]: checker });
    renderEditor();
    setCode('local x = = 1');
    await waitFor(() => expect(summary()).toHaveTextContent('2 syntax errors'));
    setCode('  \n ');
    expect(summary()).toHaveTextContent('');
    expect(screen.getByTestId('editor-diagnostics')).toBeEmptyDOMElement();
    await pause(CHECK_DEBOUNCE_MS + 100);
    expect(checks).toEqual(['local x = = 1']);
  });

  it('shows a neutral note, not an error toast, when the code cannot be checked (422)', async () => {
    const reason = 'The code could not be checked: it is nested too deeply for the Luau parser.';
    stubApi({ [CHECK]: () => ({ status: 422, body: { error: reason } }) });
    renderEditor();
    setCode('local t = {{{{{{}}}}}}');
    await waitFor(() => expect(summary()).toHaveTextContent(`Syntax check unavailable: ${reason}`));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('asks a busy checker (503) again a moment later', async () => {
    let busy = true;
    stubApi({
      [CHECK]: (body) =>
        busy
          ? { status: 503, body: { error: 'The syntax checker is busy. Please try again in a moment.' } }
          : checker(body),
    });
    renderEditor();
    setCode('local x = = 1');
    await waitFor(() =>
      expect(summary()).toHaveTextContent(
        'Syntax check unavailable: The syntax checker is busy. Please try again in a moment.',
      ),
    );
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    busy = false;
    await waitFor(() => expect(summary()).toHaveTextContent('2 syntax errors'), { timeout: 3000 });
    expect(checks).toEqual(['local x = = 1', 'local x = = 1']);
  });
});

describe('ScriptEditor formatting', () => {
  const FORMATTED: Record<string, string> = { 'local   x=1': 'local x = 1\n', 'print( 1 )': 'print(1)\n' };
  const formatter: Handler = (body) => {
    const { code } = body as { code: string };
    const formatted = FORMATTED[code];
    return formatted
      ? { body: { code: formatted } }
      : { status: 400, body: { error: "Lua syntax error: 1:9: Expected identifier when parsing expression, got '='" } };
  };

  it("replaces the code with the formatted code from the Format button and Shift+Alt+F, toasting 'Code Formatted'", async () => {
    const calls = stubApi({ [CHECK]: checker, 'POST /api/lua/format': formatter });
    renderEditor(storedScript());
    setCode('local   x=1');
    await userEvent.click(screen.getByRole('button', { name: 'Format' }));
    expect(within(await toast()).getByText('Code Formatted')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('local x = 1\n');
    expect(sent(calls, 'POST /api/lua/format')).toEqual([
      { key: 'POST /api/lua/format', body: { code: 'local   x=1' } },
    ]);
    // Still an unsaved change of the script.
    expect(screen.getByText(/Unsaved changes/)).toBeInTheDocument();

    // The shortcut with the focus outside the editor (Ace binds it too: see LuaCodeEditor.test.tsx).
    setCode('print( 1 )');
    screen.getByLabelText('Script Name').focus();
    const shortcut = fireEvent.keyDown(window, { key: 'Ï', code: 'KeyF', shiftKey: true, altKey: true });
    expect(shortcut).toBe(false);
    await waitFor(() => expect(screen.getByLabelText('Code')).toHaveValue('print(1)\n'));
    expect(sent(calls, 'POST /api/lua/format')).toHaveLength(2);
  });

  it("reports code that does not parse as 'Format Failed' with the server's syntax error, keeping the code", async () => {
    stubApi({ [CHECK]: checker, 'POST /api/lua/format': formatter });
    renderEditor();
    setCode('local x = = 1');
    await userEvent.click(screen.getByRole('button', { name: 'Format' }));
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Format Failed')).toBeInTheDocument();
    expect(
      within(shown).getByText("Lua syntax error: 1:9: Expected identifier when parsing expression, got '='"),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('local x = = 1');
  });

  it('does not format blank code', async () => {
    const calls = stubApi({ 'POST /api/lua/format': formatter });
    renderEditor();
    setCode('   ');
    await userEvent.click(screen.getByRole('button', { name: 'Format' }));
    expect(sent(calls, 'POST /api/lua/format')).toEqual([]);
  });
});

describe('ScriptEditor Run in Sandbox', () => {
  const sandboxAnswer = (overrides: object) => ({
    success: true,
    output: '',
    error: null,
    target: 'sandbox',
    executionId: 'e1',
    durationMs: 7,
    limit: null,
    ...overrides,
  });

  it('runs the code on screen, unsaved, in the sandbox and shows where it ran', async () => {
    const { held, release } = gate();
    const calls = stubApi(
      { 'POST /api/scripts/execute': () => ({ body: sandboxAnswer({ output: 'hi from the sandbox\n' }) }) },
      { hold: held },
    );
    renderEditor();
    setCode('print("hi from the sandbox")');
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));

    expect(await screen.findByText('Executing script...')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Running');
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Sandbox');
    expect(screen.getByLabelText('Code')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Running...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Execute' })).toBeDisabled();
    release();

    const shown = await toast();
    expect(within(shown).getByText('Script Executed')).toBeInTheDocument();
    expect(within(shown).getByText('hi from the sandbox')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Sandbox');
    expect(screen.getByTestId('execution-output')).toHaveTextContent('hi from the sandbox');
    expect(screen.getByTestId('execution-duration')).toHaveTextContent('7 ms');
    expect(screen.getByLabelText('Code')).not.toHaveAttribute('readonly');
    // No save: the new script stays new.
    expect(calls).toEqual([
      { key: 'POST /api/scripts/execute', body: { code: 'print("hi from the sandbox")', target: 'sandbox' } },
    ]);
  });

  it('notes the limit that ended a run and reports it as a failure', async () => {
    stubApi({
      'POST /api/scripts/execute': () => ({
        body: sandboxAnswer({
          success: false,
          error: 'Instruction limit exceeded',
          durationMs: 1256,
          limit: 'instructions',
        }),
      }),
    });
    renderEditor(storedScript({ code: 'while true do end' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText('Instruction limit exceeded')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Error');
    expect(screen.getByTestId('execution-limit')).toHaveTextContent('Stopped: instruction limit');
    expect(screen.getByTestId('execution-output')).toHaveTextContent('Instruction limit exceeded');
    expect(screen.getByTestId('execution-duration')).toHaveTextContent('1.26 s');
  });

  it('shows the output of a run that failed, with its error under it', async () => {
    stubApi({
      'POST /api/scripts/execute': () => ({
        body: sandboxAnswer({ success: false, output: 'before\n', error: 'script:2: boom' }),
      }),
    });
    renderEditor(storedScript({ code: 'print("before")\nerror("boom")' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    expect(within(await toast()).getByText('script:2: boom')).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent('before');
    expect(screen.getByTestId('execution-error')).toHaveTextContent('script:2: boom');
  });

  it("toasts 'No Code' for blank code and sends nothing", async () => {
    const calls = stubApi({});
    renderEditor();
    setCode('  ');
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    expect(within(await toast()).getByText('No Code')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("reports a syntax error (400) as 'Execution Failed' with the server's text", async () => {
    const error = "Lua syntax error: 1:9: Expected identifier when parsing expression, got '='";
    stubApi({ 'POST /api/scripts/execute': () => ({ status: 400, body: { error } }) });
    renderEditor();
    setCode('local x = = 1');
    await userEvent.click(screen.getByRole('button', { name: 'Run in Sandbox' }));
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText(`Failed to execute script. Please try again. (${error})`)).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent(error);
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Sandbox');
  });
});

describe('ScriptEditor Dry run', () => {
  const summary = {
    created: [
      { className: 'Part', count: 3 },
      { className: 'Folder', count: 1 },
    ],
    destroyed: [],
    changed: [
      {
        instance: 'Workspace.Player1.HumanoidRootPart',
        property: 'CFrame',
        value: '0, 50, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1',
      },
    ],
    changedOmitted: 2,
    propertiesSet: 14,
    gameSeconds: 60,
    waitingThreads: 1,
    endedBy: 'game-time-limit',
  };
  const dryRunAnswer = (overrides: object) => ({
    success: true,
    output: '',
    error: null,
    target: 'dry-run',
    executionId: 'e2',
    durationMs: 12,
    limit: null,
    dryRun: summary,
    ...overrides,
  });

  it('dry-runs the code on screen and shows its output, warnings and the summary', async () => {
    const { held, release } = gate();
    const calls = stubApi(
      {
        'POST /api/scripts/execute': () => ({
          body: dryRunAnswer({ output: 'spawned 3\nwarning: careful\nerror: script:9: boom\n' }),
        }),
      },
      { hold: held },
    );
    renderEditor();
    setCode('print("spawned", 3)');
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }));

    expect(await screen.findByText('Executing script...')).toBeInTheDocument();
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Dry run');
    expect(screen.getByRole('button', { name: 'Running...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Run in Sandbox' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Execute' })).toBeDisabled();
    release();

    expect(within(await toast()).getByText('Script Executed')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('execution-output')).toHaveTextContent(
      'spawned 3 warning: careful error: script:9: boom',
    );
    expect(screen.getByText('warning: careful')).toHaveStyle({ color: 'var(--chakra-colors-fg-warning)' });
    expect(screen.getByText('error: script:9: boom')).toHaveStyle({ color: 'var(--chakra-colors-fg-error)' });
    expect(screen.getByTestId('dry-run-created')).toHaveTextContent('Created: 3 Part, 1 Folder');
    expect(screen.getByTestId('dry-run-destroyed')).toHaveTextContent('Destroyed: none');
    expect(screen.getByTestId('dry-run-changed')).toHaveTextContent(
      'Workspace.Player1.HumanoidRootPart.CFrame = 0, 50, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1… and 2 more',
    );
    expect(screen.getByTestId('dry-run-ending')).toHaveTextContent(
      '60 s of game time, stopped at the dry run’s game-time limit, 1 thread still waiting',
    );
    expect(calls).toEqual([
      { key: 'POST /api/scripts/execute', body: { code: 'print("spawned", 3)', target: 'dry-run' } },
    ]);
  });

  it('shows what is not available in a dry run as the failure, and no summary after a limit', async () => {
    stubApi({
      'POST /api/scripts/execute': () => ({
        body: dryRunAnswer({
          success: false,
          error: 'script:1: DataStoreService is not available in a dry run',
          dryRun: null,
        }),
      }),
    });
    renderEditor(storedScript({ code: 'game:GetService("DataStoreService")' }));
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('script:1: DataStoreService is not available in a dry run')).toBeInTheDocument();
    expect(screen.getByTestId('execution-output')).toHaveTextContent('DataStoreService is not available in a dry run');
    expect(screen.queryByTestId('dry-run-summary')).not.toBeInTheDocument();
  });
});

describe('ScriptEditor Execute in the game', () => {
  it("toasts 'Game Not Connected' with the instructions and shows both in the output pane", async () => {
    const calls = stubApi({
      'POST /api/scripts/s1/execute': () => ({
        body: notConnectedAnswer(),
      }),
    });
    renderEditor(storedScript());
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Game Not Connected')).toBeInTheDocument();
    expect(within(shown).getByText(ERRORS.gameNotConnectedInstructions)).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Error');
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Game');
    const output = screen.getByTestId('execution-output');
    expect(output).toHaveTextContent(ERRORS.gameNotConnected);
    expect(output).toHaveTextContent(ERRORS.gameNotConnectedInstructions);
    // Nothing ran: no duration.
    expect(screen.queryByTestId('execution-duration')).not.toBeInTheDocument();
    expect(sent(calls, 'POST /api/scripts/s1/execute')).toEqual([{ key: 'POST /api/scripts/s1/execute', body: {} }]);
  });

  it("toasts 'Script Queued' when the game takes the script and its result is still to come", async () => {
    stubApi({
      'POST /api/scripts/s1/execute': () => ({
        body: {
          success: true,
          queued: true,
          gameConnected: true,
          pending: true,
          output: '',
          error: null,
          target: 'game',
        },
      }),
    });
    renderEditor(storedScript());
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(within(shown).getByText('Script Queued')).toBeInTheDocument();
    expect(within(shown).getByText('Script has been sent to your game for execution')).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Queued');
  });

  it("reports a syntax error (400) as 'Execution Failed' with the server's text", async () => {
    const error = "Lua syntax error: 2:11: Expected identifier when parsing expression, got '='";
    stubApi({ 'POST /api/scripts/s1/execute': () => ({ status: 400, body: { error } }) });
    renderEditor(storedScript());
    await userEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText(`Failed to execute script. Please try again. (${error})`)).toBeInTheDocument();
    expect(screen.getByTestId('execution-status')).toHaveTextContent('Error');
  });
});

describe('ScriptEditor Run in Roblox', () => {
  const PLACE: CloudPlaceStatus = {
    universeId: '4200000001',
    placeId: '4200000002',
    placeVersion: null,
    ready: true,
    reason: null,
  };
  const QUEUED = {
    success: true,
    pending: true,
    queued: true,
    output: '',
    error: null,
    target: 'cloud',
    executionId: 'e7',
    durationMs: 0,
    cloudState: 'waiting',
  };
  const RUN = {
    id: 'e7',
    scriptId: 's1',
    scriptName: 'Script',
    scriptVersion: null,
    target: 'cloud',
    serverId: null,
    status: 'failed',
    limitHit: null,
    durationMs: 840,
    startedBy: 'user',
    actorId: 'u1',
    actorName: 'Ada',
    keyName: null,
    cloudState: 'failed',
    createdAt: '2026-11-29T10:00:00.000Z',
    code: 'print("one")\nlocal x = 1\nerror("boom")',
    codeComplete: true,
    output: 'one\nError: TaskScript:3: boom',
    error: 'SCRIPT_ERROR: TaskScript:3: boom',
    cloud: {
      state: 'failed',
      universeId: '4200000001',
      placeId: '4200000002',
      placeVersion: null,
      timeoutSeconds: 60,
      taskPath: 'universes/4200000001/places/4200000002/luau-execution-session-tasks/t1',
      waitingReason: null,
      errorCode: 'SCRIPT_ERROR',
      errorMessage: 'TaskScript:3: boom',
      returnValues: null,
      logs: [
        { message: 'one', type: 'output', time: null },
        { message: 'TaskScript:3: boom', type: 'error', time: null },
      ],
      startedAt: '2026-11-29T10:00:01.000Z',
      finishedAt: '2026-11-29T10:00:02.000Z',
    },
  };

  it('runs the code on screen in Roblox with the time limit chosen, and shows how Roblox ran it', async () => {
    cloudPlace = PLACE;
    const calls = stubApi({
      'POST /api/scripts/execute': () => ({ body: QUEUED }),
      'GET /api/executions/e7': () => ({ body: RUN }),
    });
    renderEditor(storedScript());
    const run = await screen.findByRole('button', { name: 'Run in Roblox · place 4200000002' });
    setCode(RUN.code);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Time limit in Roblox' }), '1 min');
    await userEvent.click(run);
    await waitFor(() =>
      expect(sent(calls, 'POST /api/scripts/execute')).toEqual([
        {
          key: 'POST /api/scripts/execute',
          body: { code: RUN.code, target: 'cloud', scriptId: 's1', timeoutSeconds: 60 },
        },
      ]),
    );
    const shown = await toast();
    expect(within(shown).getByText('Sent to Roblox')).toBeInTheDocument();
    const pane = await screen.findByTestId('cloud-run-output');
    await waitFor(() => expect(within(pane).getByTestId('cloud-state')).toHaveTextContent('Failed'));
    expect(within(pane).getByTestId('execution-target')).toHaveTextContent('Roblox');
    expect(within(pane).getByTestId('cloud-error')).toHaveTextContent('SCRIPT_ERROR');
    expect(within(pane).getByTestId('cloud-error')).toHaveTextContent('TaskScript:3: boom');
    expect(
      within(pane)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual(['one', 'Error: TaskScript:3: boom']);
  });

  it("offers the run when where it runs cannot be read, and shows the server's refusal (no place)", async () => {
    cloudPlace = null;
    const error = CLOUD_RUN_ERRORS.noPlace;
    stubApi({ 'POST /api/scripts/execute': () => ({ status: 400, body: { error } }) });
    renderEditor(storedScript());
    const run = await screen.findByRole('button', { name: 'Run in Roblox' });
    await waitFor(() => expect(run).toBeEnabled());
    // Where it runs can be read again meanwhile: the refusal has it read anew.
    cloudPlace = { ...PLACE, placeId: null, ready: false, reason: error };
    await userEvent.click(run);
    const shown = await toast();
    expect(within(shown).getByText('Execution Failed')).toBeInTheDocument();
    expect(within(shown).getByText(`Failed to execute script. Please try again. (${error})`)).toBeInTheDocument();
    expect(screen.getByTestId('execution-target')).toHaveTextContent('Roblox');
    expect(screen.getByTestId('execution-output')).toHaveTextContent(error);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(error);
    expect(run).toBeDisabled();
  });

  it("names the place for a team's developer, who may run in Roblox but not read the Open Cloud key", async () => {
    chooseTeam('t1');
    cloudPlace = { ...PLACE, placeVersion: '7' };
    const calls = stubApi({ 'GET /api/teams': () => ({ body: [personalTeam(), testTeam()] }) });
    renderEditor(storedScript());
    const run = await screen.findByRole('button', { name: 'Run in Roblox · place 4200000002 v7' });
    await waitFor(() => expect(run).toBeEnabled());
    expect(sent(calls, 'GET /api/open-cloud/key')).toEqual([]);
  });

  it('tells a developer what is missing, without the way to Settings their role may not change', async () => {
    chooseTeam('t1');
    cloudPlace = { ...PLACE, placeId: null, ready: false, reason: CLOUD_RUN_ERRORS.noPlace };
    stubApi({ 'GET /api/teams': () => ({ body: [personalTeam(), testTeam()] }) });
    renderEditor(storedScript());
    // Until the role is known the note names the permission; then what is missing.
    await waitFor(() =>
      expect(screen.getByTestId('cloud-run-note')).toHaveTextContent(
        `${CLOUD_RUN_ERRORS.noPlace} ${CLOUD_RUN_TEXT.askManager}`,
      ),
    );
    expect(screen.getByTestId('run-in-roblox')).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Open Settings' })).not.toBeInTheDocument();
  });

  it('does not ask where it would run for a role without runs.game', async () => {
    chooseTeam('t1');
    // Answered 404 and recorded, so a call would show.
    cloudPlace = null;
    const viewer = testTeam({ role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] });
    const calls = stubApi({ 'GET /api/teams': () => ({ body: [personalTeam(), viewer] }) });
    renderEditor(storedScript());
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent('Needs the permission runs.sandbox');
    expect(screen.getByTestId('run-in-roblox')).toBeDisabled();
    expect(sent(calls, CLOUD_PLACE)).toEqual([]);
  });

  it('is disabled, saying why and where to set it, when no place is set', async () => {
    cloudPlace = { ...PLACE, placeId: null, ready: false, reason: CLOUD_RUN_ERRORS.noPlace };
    stubApi({});
    renderEditor(storedScript());
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(CLOUD_RUN_ERRORS.noPlace);
    expect(screen.getByTestId('run-in-roblox')).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings#open-cloud');
  });
});

describe('ScriptEditor saving code with syntax errors', () => {
  it("saves it, warning 'Script Saved With Errors' instead of 'Script Saved'", async () => {
    const script = storedScript();
    const calls = stubApi({
      [CHECK]: checker,
      'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }),
    });
    renderEditor(script);
    setCode('local x = = 1');
    await waitFor(() => expect(summary()).toHaveTextContent('2 syntax errors'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Script' }));
    const shown = await toast();
    expect(shown).toHaveAttribute('data-type', 'warning');
    expect(within(shown).getByText('Script Saved With Errors')).toBeInTheDocument();
    expect(
      within(shown).getByText('The script has 2 syntax errors; it will not run until they are fixed.'),
    ).toBeInTheDocument();
    expect(sent(calls, 'PUT /api/scripts/s1')[0]?.body).toMatchObject({ code: 'local x = = 1' });
    // The latest check was of exactly this code: the save asked for no other.
    expect(checks).toEqual(['local x = = 1']);
  });

  it('checks code saved before its check came (the modal save path), and keeps the titles for valid code', async () => {
    const script = storedScript();
    stubApi({
      [CHECK]: checker,
      'PUT /api/scripts/s1': (body) => ({ body: { ...script, ...(body as object) } }),
    });
    renderEditor(script);
    setCode('local x = = 1');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Script' }));
    expect(within(await toast()).getByText('Script Saved With Errors')).toBeInTheDocument();
    expect(
      screen.getByText('The script has 2 syntax errors; it will not run until they are fixed.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    setCode('local x = 1');
    await waitFor(() => expect(summary()).toHaveTextContent('No syntax errors'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Script' }));
    await waitFor(() => expect(screen.getByTestId('toast')).toHaveAttribute('data-type', 'success'));
    expect(within(screen.getByTestId('toast')).getByText('Script Saved')).toBeInTheDocument();
  });

  it('warns on a new script too, with one error in the singular', async () => {
    const created = storedScript({ id: 'new1', name: 'Broken', code: 'print(1' });
    stubApi({
      [CHECK]: () => ({
        body: {
          ok: false,
          diagnostics: [diagnostic(1, 6, "Expected ')' (to close '(' at column 6), got <eof>")],
        },
      }),
      'POST /api/scripts': () => ({ status: 201, body: created }),
    });
    renderEditor();
    await userEvent.type(screen.getByLabelText('Script Name'), 'Broken');
    setCode('print(1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Script' }));
    expect(within(await toast()).getByText('Script Saved With Errors')).toBeInTheDocument();
    expect(screen.getByText('The script has 1 syntax error; it will not run until it is fixed.')).toBeInTheDocument();
  });
});
