import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { ConsoleErrorCounts, ConsoleLine, ConsoleLinesEvent, ConsolePage } from '@moonrelay/contract/console';
import type { GameStatus } from '@moonrelay/contract/game';
import { lineClock } from '../../../components/console/console-format.ts';
import { consoleLine, consoleLines, pageOf, SERVER_A, SERVER_B } from '../../../components/console/test-console.ts';
import { manualFrames } from '../../../components/console/test-frames.ts';
import { closeLiveSocket, useLiveSocketState } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs, testScript } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { useLiveEvents } from '../live/useLiveEvents.ts';
import { agoIso, connectedStatus, testServer } from '../../../test/test-game.ts';
import { ConsolePanel } from './ConsolePanel.tsx';

let socket: FakeSocket;
let frames: ReturnType<typeof manualFrames>;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

interface Api {
  status?: GameStatus;
  /** The answer to GET /api/game/console for these query parameters. */
  console?: (params: URLSearchParams) => ConsolePage | { status: number; body: unknown };
  errors?: ConsoleErrorCounts;
}

/** Stubs the API the panel calls; records the query of every console request. */
function stubApi({ status = connectedStatus(), console = () => pageOf([]), errors = { servers: [] } }: Api = {}) {
  const consoleCalls: URLSearchParams[] = [];
  const json = (body: unknown, code = 200) =>
    new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/game/status') return json(status);
      if (url.pathname === '/api/game/console/errors') return json(errors);
      if (url.pathname === '/api/game/console') {
        consoleCalls.push(url.searchParams);
        const answer = console(url.searchParams);
        return 'lines' in answer ? json(answer) : json(answer.body, answer.status);
      }
      return json({ error: 'Not found' }, 404);
    }),
  );
  return { consoleCalls };
}

const SCRIPTS = [testScript({ id: 's1', name: 'Speed Boost' })];

/** The panel as the app mounts it: the live events hook runs in the signed-in app. */
function Harness() {
  useLiveEvents();
  return <ConsolePanel scripts={SCRIPTS} height="20rem" />;
}

function renderPanel(api: Api = {}) {
  const stub = stubApi(api);
  renderWithProviders(<Harness />);
  return stub;
}

const texts = () => screen.queryAllByTestId('console-line-text').map((element) => element.textContent);
const log = () => screen.getByRole('log', { name: 'Console lines' });
/** A socket event, and the next frame, when the log takes in what came. */
const gameSends = (lines: ConsoleLine[], event: Partial<ConsoleLinesEvent> = {}) => {
  act(() => socket.serverSends('console:lines', { userId: 'u1', lines, drops: [], ...event }));
  act(() => frames.runFrame());
};

beforeEach(() => {
  frames = manualFrames();
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  closeLiveSocket();
  vi.unstubAllGlobals();
});

describe('the Console panel', () => {
  it("shows the newest lines oldest first, in the viewer's time, then the user's own live lines as they come", async () => {
    const { consoleCalls } = renderPanel({ console: () => pageOf(consoleLines(1, 3)) });
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2', 'line 3']));
    expect(consoleCalls[0]?.get('limit')).toBe('200');
    expect(consoleCalls[0]?.has('level')).toBe(false);
    const time = within(log()).getAllByText(lineClock('2026-03-01T12:00:00.000Z'))[0]!;
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', '2026-03-01T12:00:00.000Z');

    gameSends([consoleLine(4), consoleLine(5)]);
    gameSends([consoleLine(6)], { userId: 'someone-else' });
    expect(texts()).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect(screen.getByTestId('console-count')).toHaveTextContent('5 lines');
  });

  it('says so when there is no output yet, and when the console cannot be loaded', async () => {
    let fail = true;
    renderPanel({ console: () => (fail ? { status: 500, body: { error: 'boom' } } : pageOf([])) });
    expect(await screen.findByText('The console could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText("No console output yet. Lines your game's scripts print appear here as they happen."),
    ).toBeInTheDocument();
  });

  it('filters by level: the server is asked for the chosen levels, live lines of the others stay out', async () => {
    const { consoleCalls } = renderPanel({
      console: (params) =>
        pageOf(params.get('level') ? [consoleLine(2, { level: 'warning', text: 'low health' })] : consoleLines(1, 2)),
    });
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2']));
    const output = screen.getByRole('button', { name: 'Output' });
    expect(output).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(output);
    expect(output).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(texts()).toEqual(['low health']));
    expect(consoleCalls.at(-1)?.get('level')).toBe('info,warning,error');

    gameSends([
      consoleLine(3, { text: 'printed' }),
      consoleLine(4, { level: 'error', text: 'it broke' }),
      consoleLine(5, { level: 'info', text: 'fyi' }),
    ]);
    expect(texts()).toEqual(['low health', 'it broke', 'fyi']);

    // No level at all: nothing to ask for.
    for (const name of ['Info', 'Warning', 'Error']) await userEvent.click(screen.getByRole('button', { name }));
    expect(await screen.findByText('Choose at least one level to see lines.')).toBeInTheDocument();
  });

  it('searches on the server once typing stops, and appends live lines that match', async () => {
    const { consoleCalls } = renderPanel({
      console: (params) =>
        pageOf(
          params.get('q') === 'boss'
            ? [consoleLine(1, { text: 'Boss spawned' })]
            : [consoleLine(1, { text: 'Boss spawned' }), consoleLine(2, { text: 'Player joined' })],
        ),
    });
    await waitFor(() => expect(texts()).toEqual(['Boss spawned', 'Player joined']));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'boss');
    await waitFor(() => expect(texts()).toEqual(['Boss spawned']));
    // One request for the whole word, not one a keystroke.
    expect(consoleCalls.filter((params) => params.has('q')).map((params) => params.get('q'))).toEqual(['boss']);

    gameSends([
      consoleLine(3, { text: 'Player left' }),
      consoleLine(4, { text: 'BOSS defeated' }),
      consoleLine(5, { level: 'error', text: 'Arena failed', stack: 'spawnBoss:3' }),
    ]);
    expect(texts()).toEqual(['Boss spawned', 'BOSS defeated', 'Arena failed']);

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await waitFor(() => expect(texts()).toEqual(['Boss spawned', 'Player joined']));
  });

  it('pauses: new lines wait behind an "N new lines" marker, and a click on it shows them', async () => {
    renderPanel({ console: () => pageOf(consoleLines(1, 2)) });
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2']));
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByText('Paused: new lines wait here.')).toBeInTheDocument();

    gameSends(consoleLines(3, 4));
    gameSends([consoleLine(5)]);
    expect(texts()).toEqual(['line 1', 'line 2']);
    const marker = screen.getByRole('button', { name: '3 new lines' });

    await userEvent.click(marker);
    expect(texts()).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect(screen.queryByTestId('console-new-lines')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    gameSends([consoleLine(6)]);
    expect(texts()).toHaveLength(6);
  });

  it('marks the lines a game server dropped, where it dropped them', async () => {
    const marker = '40 lines dropped by the game server: it logged faster than its pings could carry';
    renderPanel({
      console: () =>
        pageOf([consoleLine(1, { level: 'warning', own: true, dropped: 40, text: marker }), consoleLine(2)]),
    });
    await waitFor(() => expect(texts()).toEqual(['line 2']));
    // What the API kept in the lost lines' place.
    expect(screen.getByTestId('console-drop')).toHaveTextContent(`a4f0c3c2…: ${marker}`);

    gameSends([consoleLine(3)], {
      drops: [{ serverId: SERVER_A, count: 1200, time: '2026-03-01T12:00:01.000Z', reason: 'game' }],
    });
    gameSends([consoleLine(4)], {
      drops: [{ serverId: SERVER_B, count: 300, time: '2026-03-01T12:00:02.000Z', reason: 'live' }],
    });
    const drops = screen.getAllByTestId('console-drop');
    expect(drops[1]).toHaveTextContent('1,200 lines dropped by a4f0c3c2…');
    expect(drops[2]).toHaveTextContent('300 lines of b7e1d9f0… not shown live (they are kept: search to find them)');
    const rows = [...log().querySelectorAll('[data-testid="console-line"], [data-testid="console-drop"]')];
    expect(rows.map((row) => row.textContent?.match(/line \d|dropped|not shown/)?.[0])).toEqual([
      'dropped',
      'line 2',
      'dropped',
      'line 3',
      'not shown',
      'line 4',
    ]);
  });

  it('shows what a game prints as text, never as HTML', async () => {
    const attack = '<img src=x onerror=alert(1)>';
    renderPanel({
      console: () => pageOf([consoleLine(1, { text: attack, stack: '<script>alert(2)</script>', level: 'error' })]),
    });
    expect(await screen.findByText(attack)).toBeInTheDocument();
    gameSends([consoleLine(2, { text: `<b>bold</b> ${attack}` })]);
    expect(screen.getByText(`<b>bold</b> ${attack}`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stack' }));
    expect(screen.getByTestId('console-line-stack')).toHaveTextContent('<script>alert(2)</script>');
    expect(log().querySelector('img, b, script')).toBeNull();
  });

  it('makes errors stand out, with the stack on request and links to the run and the script line', async () => {
    renderPanel({
      console: () =>
        pageOf([
          consoleLine(1, { text: 'fine' }),
          consoleLine(2, {
            level: 'error',
            text: "Speed Boost:12: attempt to index nil with 'Humanoid'",
            stack: 'Speed Boost:12 function boost\nSpeed Boost:30',
            executionId: 'exec-9',
          }),
        ]),
    });
    const error = (await screen.findByText(/attempt to index nil/)).closest(
      '[data-testid="console-line"]',
    ) as HTMLElement;
    expect(within(error).getByText('error')).toBeInTheDocument();
    const stackButton = within(error).getByRole('button', { name: 'Stack' });
    expect(stackButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('console-line-stack')).not.toBeInTheDocument();
    await userEvent.click(stackButton);
    expect(stackButton).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('console-line-stack')).toHaveTextContent('Speed Boost:12 function boost');
    expect(within(error).getByRole('link', { name: 'Open run' })).toHaveAttribute('href', '/runs?id=exec-9');
    expect(within(error).getByRole('link', { name: 'Speed Boost, line 12' })).toHaveAttribute(
      'href',
      '/editor?id=s1&line=12',
    );
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });

  it('loads older lines page by page with the cursor', async () => {
    const { consoleCalls } = renderPanel({
      console: (params) => {
        if (params.get('cursor') === 'page-2') return pageOf(consoleLines(1, 2));
        return pageOf(consoleLines(3, 4), 'page-2');
      },
    });
    await waitFor(() => expect(texts()).toEqual(['line 3', 'line 4']));
    await userEvent.click(screen.getByRole('button', { name: 'Load older lines' }));
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2', 'line 3', 'line 4']));
    expect(consoleCalls.at(-1)?.get('cursor')).toBe('page-2');
    expect(screen.queryByRole('button', { name: 'Load older lines' })).not.toBeInTheDocument();
  });

  it('copies the lines shown as text', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPanel({
      console: () =>
        pageOf([consoleLine(1, { text: 'hello' }), consoleLine(2, { level: 'error', text: 'oops', stack: 'at A:1' })]),
    });
    await waitFor(() => expect(texts()).toEqual(['hello', 'oops']));
    await userEvent.click(screen.getByRole('button', { name: 'Copy the lines shown as text' }));
    const copied = writeText.mock.calls[0]?.[0] ?? '';
    const lines = copied.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.000 \[output\] a4f0c3c2…: hello$/);
    expect(lines[1]).toMatch(/\[error\] a4f0c3c2…: oops$/);
    expect(lines[2]).toBe('    at A:1');
  });

  it("offers every server of the status with its errors of the last hour, and shows the chosen one's lines", async () => {
    const status = connectedStatus({
      servers: [testServer(), testServer({ serverId: SERVER_B, connectedAt: agoIso(1000), gameData: null })],
    });
    const { consoleCalls } = renderPanel({
      status,
      errors: { servers: [{ serverId: SERVER_A, errorsLastHour: 2 }] },
      console: (params) => pageOf(params.get('serverId') === SERVER_B ? [consoleLine(9, { serverId: SERVER_B })] : []),
    });
    const picker = screen.getByRole('combobox', { name: 'Server' });
    await waitFor(() =>
      expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
        'All servers',
        'a4f0c3c2… · builderman (2 errors in the last hour)',
        'b7e1d9f0…',
      ]),
    );
    await userEvent.selectOptions(picker, SERVER_B);
    await waitFor(() => expect(texts()).toEqual(['line 9']));
    expect(consoleCalls.at(-1)?.get('serverId')).toBe(SERVER_B);
    // One server chosen: live lines of the others stay out.
    gameSends([consoleLine(10, { serverId: SERVER_A }), consoleLine(11, { serverId: SERVER_B })]);
    expect(texts()).toEqual(['line 9', 'line 11']);
  });

  it('fetches the newest lines again when the live socket comes back, for what it missed', async () => {
    let lines = consoleLines(1, 2);
    const { consoleCalls } = renderPanel({ console: () => pageOf(lines) });
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2']));
    act(() => useLiveSocketState.setState({ connected: false }));
    lines = consoleLines(1, 4);
    act(() => useLiveSocketState.setState({ connected: true }));
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2', 'line 3', 'line 4']));
    expect(consoleCalls.length).toBeGreaterThanOrEqual(2);
  });
});
