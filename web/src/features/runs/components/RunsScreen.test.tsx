import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Run, RunPage, RunSummary } from '@moonrelay/contract/runs';
import { closeLiveSocket } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { chooseTeam, testTeam } from '../../../test/teams.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { useRunsLiveEvents } from '../live/useRunsLiveEvents.ts';
import { RUN_ROW_HEIGHT } from './RunRow.tsx';
import { RunsScreen } from './RunsScreen.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const summary = (overrides: Partial<RunSummary>): RunSummary => ({
  id: 'r1',
  scriptId: null,
  scriptName: null,
  scriptVersion: null,
  target: 'sandbox',
  serverId: null,
  status: 'succeeded',
  limitHit: null,
  durationMs: 7,
  startedBy: 'user',
  actorId: null,
  actorName: null,
  keyName: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  ...overrides,
});

const GREETER = summary({ id: 'r3', scriptId: 's1', scriptName: 'Greeter', createdAt: '2026-03-01T12:00:03.000Z' });
const GAME = summary({
  id: 'r2',
  target: 'game',
  serverId: 'job-1234567890',
  status: 'pending',
  durationMs: 0,
  createdAt: '2026-03-01T12:00:02.000Z',
});
const LIMIT = summary({ id: 'r1', status: 'failed', limitHit: 'memory', createdAt: '2026-03-01T12:00:01.000Z' });
const OLDER = summary({ id: 'r0', status: 'failed', createdAt: '2026-03-01T11:00:00.000Z' });

const fullRun = (run: RunSummary, overrides: Partial<Run> = {}): Run => ({
  ...run,
  code: 'print("hello")',
  codeComplete: true,
  output: 'hello\n',
  error: null,
  ...overrides,
});

let requests: { method: string; url: string; body: unknown }[];
let pages: Record<string, RunPage>;
let runs: Record<string, Run>;

function serve() {
  requests = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    requests.push({ method, url: url.pathname + url.search, body: init?.body ? JSON.parse(String(init.body)) : null });
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (method === 'GET' && url.pathname === '/api/executions') {
      const page = pages[url.searchParams.toString()];
      return page ? json(page) : json({ runs: [], nextCursor: null });
    }
    const one = url.pathname.match(/^\/api\/executions\/(.+)$/);
    if (method === 'GET' && one) {
      const run = runs[decodeURIComponent(one[1]!)];
      return run ? json(run) : json({ error: 'Execution not found' }, 404);
    }
    if (method === 'POST' && url.pathname.endsWith('/execute')) {
      return json({
        success: true,
        output: 'hello\n',
        error: null,
        target: 'sandbox',
        executionId: 'r9',
        durationMs: 3,
      });
    }
    if (method === 'GET' && url.pathname === '/api/teams/t1') {
      return json({
        ...testTeam(),
        memberList: [
          {
            userId: 'u1',
            name: 'Ada',
            username: 'ada',
            role: 'developer',
            permissions: [],
            joinedAt: GREETER.createdAt,
          },
          {
            userId: 'u2',
            name: 'Bob',
            username: 'bob',
            role: 'moderator',
            permissions: [],
            joinedAt: GREETER.createdAt,
          },
        ],
        invitations: [],
      });
    }
    return json({ error: 'Not found' }, 404);
  });
}

function Screen() {
  useRunsLiveEvents();
  return <RunsScreen scripts={[{ id: 's1', name: 'Greeter' }]} />;
}

const rows = () => screen.getAllByTestId('run-row');
const rowOf = (id: string) => rows().find((row) => row.dataset.runId === id)!;
const listRequests = () =>
  requests.filter((request) => request.url.startsWith('/api/executions?') || request.url === '/api/executions');

/** jsdom lays nothing out: the runs' scroll area is given the height of 15 rows. */
const VIEW_HEIGHT = 15 * RUN_ROW_HEIGHT;
const isScroller = (element: Element) => element.getAttribute('data-testid') === 'runs-scroller';
let layout: MockInstance[] = [];
/** The scroll area's content is this tall (it scrolls when taller than the view). */
function contentHeight(height: number) {
  layout.push(
    vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
      return isScroller(this) ? height : 0;
    }),
  );
}
const scroller = () => screen.getByTestId('runs-scroller');
function scrollTo(top: number) {
  scroller().scrollTop = top;
  fireEvent.scroll(scroller());
}

beforeEach(() => {
  layout = [
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
      return isScroller(this) ? VIEW_HEIGHT : 0;
    }),
  ];
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  signInAs();
  pages = { '': { runs: [GREETER, GAME, LIMIT], nextCursor: null } };
  runs = {};
  serve();
});
afterEach(() => {
  for (const spy of layout) spy.mockRestore();
  closeLiveSocket();
  vi.unstubAllGlobals();
});

describe('RunsScreen', () => {
  it('lists the runs newest first with what each was, where it ran and how it ended', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    expect(screen.getByText('Loading runs...')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((row) => row.dataset.runId)).toEqual(['r3', 'r2', 'r1']);
    expect(within(rowOf('r3')).getByText('Greeter')).toBeInTheDocument();
    expect(within(rowOf('r2')).getByText('Custom code')).toBeInTheDocument();
    expect(within(rowOf('r2')).getByText('Game')).toBeInTheDocument();
    expect(within(rowOf('r2')).getByText('job-1234…')).toBeInTheDocument();
    expect(within(rowOf('r2')).getByTestId('run-status')).toHaveTextContent('Pending');
    expect(within(rowOf('r2')).getByTestId('run-duration')).toHaveTextContent('—');
    expect(within(rowOf('r1')).getByTestId('run-status')).toHaveTextContent('Stopped: memory limit');
    expect(within(rowOf('r3')).getByTestId('run-duration')).toHaveTextContent('7 ms');
  });

  it("names who started each of a team's runs and lists one member's runs", async () => {
    chooseTeam('t1');
    pages = {
      '': {
        runs: [
          { ...GREETER, actorId: 'u1', actorName: 'ada' },
          { ...GAME, actorId: 'u2', actorName: 'bob', keyName: 'Deploy bot' },
          { ...LIMIT, startedBy: 'schedule', actorId: 'u2', actorName: 'bob' },
        ],
        nextCursor: null,
      },
      'actorId=u2': { runs: [{ ...GAME, actorId: 'u2', actorName: 'bob', keyName: 'Deploy bot' }], nextCursor: null },
    };
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(rowOf('r3')).getByText('You')).toBeInTheDocument();
    expect(within(rowOf('r2')).getByText('bob, with the API key “Deploy bot”')).toBeInTheDocument();
    expect(within(rowOf('r1')).getByText('A schedule set by bob')).toBeInTheDocument();

    const person = await screen.findByLabelText('Filter runs by person');
    await waitFor(() => expect(within(person).getByRole('option', { name: 'bob' })).toBeInTheDocument());
    await userEvent.selectOptions(person, 'bob');
    await waitFor(() => expect(listRequests().at(-1)!.url).toBe('/api/executions?actorId=u2'));
    await waitFor(() => expect(rows().map((row) => row.dataset.runId)).toEqual(['r2']));
  });

  it('offers no person filter on one’s own account, where every run is theirs', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByLabelText('Filter runs by person')).not.toBeInTheDocument();
    expect(requests.some((request) => request.url.startsWith('/api/teams/'))).toBe(false);
  });

  it('says so when there are no runs, and when none match the filters', async () => {
    pages = {};
    renderWithProviders(<Screen />, { route: '/runs' });
    expect(
      await screen.findByText(
        'No runs yet. Run a script from the editor, My Scripts or the dashboard and it shows up here.',
      ),
    ).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Filter runs by status'), 'limit');
    expect(await screen.findByText('No runs match these filters.')).toBeInTheDocument();
  });

  it('asks the server for the filters chosen', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.selectOptions(screen.getByLabelText('Filter runs by script'), 'Greeter');
    await userEvent.selectOptions(screen.getByLabelText('Filter runs by target'), 'game');
    await userEvent.selectOptions(screen.getByLabelText('Filter runs by status'), 'pending');
    await userEvent.type(screen.getByLabelText('Filter runs by game server'), 'job-1{Enter}');
    await waitFor(() =>
      expect(listRequests().at(-1)!.url).toBe('/api/executions?scriptId=s1&target=game&serverId=job-1&status=pending'),
    );
    await userEvent.selectOptions(screen.getByLabelText('Filter runs by time'), '24h');
    const lastFrom = () => new URL(listRequests().at(-1)!.url, 'http://localhost').searchParams.get('from');
    await waitFor(() => expect(lastFrom()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/));
    const from = lastFrom()!;
    expect(Date.now() - Date.parse(from)).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(Date.now() - Date.parse(from)).toBeLessThan(25 * 3600_000);

    // Back to every run: the list fetched first (kept current by the live events) shows again.
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByLabelText('Filter runs by status')).toHaveValue('');
    expect(screen.getByLabelText('Filter runs by game server')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('keeps both of two filter changes made before the page renders again', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    // One act: React renders once, after both changes (as on a busy machine or with quick hands).
    act(() => {
      fireEvent.change(screen.getByLabelText('Filter runs by status'), { target: { value: 'failed' } });
      fireEvent.change(screen.getByLabelText('Filter runs by target'), { target: { value: 'game' } });
    });
    await waitFor(() => expect(listRequests().at(-1)!.url).toBe('/api/executions?target=game&status=failed'));
  });

  it('updates a pending run in place when its result arrives, and adds new runs at the top', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    const fetched = listRequests().length;

    socket.serverSends('execution:updated', { run: { ...GAME, status: 'succeeded', durationMs: 41 } });
    await waitFor(() => expect(within(rowOf('r2')).getByTestId('run-status')).toHaveTextContent('Succeeded'));
    expect(within(rowOf('r2')).getByTestId('run-duration')).toHaveTextContent('41 ms');
    expect(rows().map((row) => row.dataset.runId)).toEqual(['r3', 'r2', 'r1']);

    const newest = summary({ id: 'r4', createdAt: '2026-03-01T12:00:04.000Z', status: 'pending', target: 'game' });
    socket.serverSends('execution:updated', { run: newest });
    await waitFor(() => expect(rows().map((row) => row.dataset.runId)).toEqual(['r4', 'r3', 'r2', 'r1']));
    // Patched from the events alone: nothing was fetched again.
    expect(listRequests()).toHaveLength(fetched);
  });

  it('leaves a pushed run out of a list whose filters do not take it', async () => {
    pages = { 'status=failed': { runs: [LIMIT], nextCursor: null } };
    renderWithProviders(<Screen />, { route: '/runs?status=failed' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    socket.serverSends('execution:updated', { run: summary({ id: 'r5', createdAt: '2026-03-01T12:00:05.000Z' }) });
    socket.serverSends('execution:updated', {
      run: summary({ id: 'r6', status: 'failed', createdAt: '2026-03-01T12:00:06.000Z' }),
    });
    await waitFor(() => expect(rows().map((row) => row.dataset.runId)).toEqual(['r6', 'r1']));
  });

  it('opens a run with its output and code, runs it again, and shows the new run', async () => {
    runs = {
      r3: fullRun(GREETER, { output: 'hello from Greeter\n', code: 'print("hello from Greeter")' }),
      r9: fullRun(summary({ id: 'r9', scriptId: 's1', scriptName: 'Greeter' }), { output: 'again\n' }),
    };
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.click(rowOf('r3'));

    const detail = await screen.findByTestId('run-detail');
    await waitFor(() => expect(within(detail).getByTestId('execution-output')).toHaveTextContent('hello from Greeter'));
    expect(within(detail).getByText('You')).toBeInTheDocument();
    const code = await within(detail).findByTestId('run-code');
    await waitFor(() => expect(code.querySelector('.ace_editor')).not.toBeNull());
    const editor = (code.querySelector('.ace_editor') as HTMLElement & { env: { editor: { getValue(): string } } }).env
      .editor;
    expect(editor.getValue()).toBe('print("hello from Greeter")');
    expect(within(detail).getByRole('link', { name: 'Open in editor' })).toHaveAttribute('href', '/editor?id=s1');

    await userEvent.click(within(detail).getByRole('button', { name: 'Run again' }));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'POST')).toEqual({
        method: 'POST',
        url: '/api/scripts/s1/execute',
        body: { target: 'sandbox' },
      }),
    );
    await waitFor(() => expect(within(detail).getByText('r9')).toBeInTheDocument());
    expect(within(detail).getByTestId('execution-output')).toHaveTextContent('again');
  });

  it('runs custom code again by the code kept, on the same game server', async () => {
    runs = { r2: fullRun({ ...GAME, status: 'succeeded' }, { code: 'print("on the game")' }) };
    renderWithProviders(<Screen />, { route: '/runs?id=r2' });
    const detail = await screen.findByTestId('run-detail');
    await within(detail).findByText('job-1234567890');
    await userEvent.click(within(detail).getByRole('button', { name: 'Run again' }));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'POST')).toEqual({
        method: 'POST',
        url: '/api/scripts/execute',
        body: { code: 'print("on the game")', target: 'game', serverId: 'job-1234567890' },
      }),
    );
  });

  it('lists cloud runs under the target Roblox, a pending one saying where it is in Roblox', async () => {
    const cloudRun = summary({
      id: 'r5',
      target: 'cloud',
      status: 'pending',
      cloudState: 'queued',
      durationMs: 0,
      createdAt: '2026-03-01T12:00:05.000Z',
    });
    pages = { 'target=cloud': { runs: [cloudRun], nextCursor: null } };
    renderWithProviders(<Screen />, { route: '/runs' });
    const target = screen.getByLabelText('Filter runs by target');
    expect(within(target).getByRole('option', { name: 'Roblox' })).toHaveValue('cloud');
    await userEvent.selectOptions(target, 'Roblox');
    await waitFor(() => expect(listRequests().at(-1)!.url).toBe('/api/executions?target=cloud'));
    await waitFor(() => expect(rows().map((row) => row.dataset.runId)).toEqual(['r5']));
    expect(within(rowOf('r5')).getByText('Roblox')).toBeInTheDocument();
    expect(within(rowOf('r5')).getByTestId('run-status')).toHaveTextContent('Queued in Roblox');

    socket.serverSends('execution:updated', { run: { ...cloudRun, cloudState: 'running' } });
    await waitFor(() => expect(within(rowOf('r5')).getByTestId('run-status')).toHaveTextContent('Running in Roblox'));
    socket.serverSends('execution:updated', {
      run: { ...cloudRun, status: 'succeeded', cloudState: 'succeeded', durationMs: 1200 },
    });
    await waitFor(() => expect(within(rowOf('r5')).getByTestId('run-status')).toHaveTextContent('Succeeded'));
  });

  it("shows a cloud run's part live: its state, place, lines, and Cancel while it waits", async () => {
    const waiting = summary({ id: 'r6', target: 'cloud', status: 'pending', cloudState: 'waiting', durationMs: 0 });
    const cloud: NonNullable<Run['cloud']> = {
      state: 'waiting',
      universeId: '4200000001',
      placeId: '4200000002',
      placeVersion: '7',
      timeoutSeconds: 120,
      taskPath: null,
      waitingReason: 'Waiting for Roblox: its limit of new tasks a minute (the next at 2026-03-01T12:01:00.000Z)',
      errorCode: null,
      errorMessage: null,
      returnValues: null,
      logs: [],
      startedAt: null,
      finishedAt: null,
    };
    runs = { r6: fullRun(waiting, { output: '', cloud }) };
    renderWithProviders(<Screen />, { route: '/runs?id=r6' });
    const detail = await screen.findByTestId('run-detail');
    const part = await within(detail).findByTestId('cloud-run');
    expect(within(detail).getByTestId('run-status')).toHaveTextContent('Waiting for Roblox');
    expect(within(part).getByTestId('cloud-place')).toHaveTextContent('4200000002 · version 7');
    expect(within(part).getByText('2 min')).toBeInTheDocument();
    expect(within(part).getByTestId('cloud-waiting-reason')).toHaveTextContent('its limit of new tasks a minute');
    expect(within(part).getByRole('button', { name: 'Cancel run' })).toBeEnabled();
    // The status says where it is: the cloud part does not say it again.
    expect(within(part).queryByTestId('cloud-state')).not.toBeInTheDocument();

    // Roblox takes it: the lines come as they are read, and Cancel goes.
    socket.serverSends('execution:logs', { executionId: 'r6', state: 'running', lines: [] });
    await waitFor(() => expect(within(detail).getByTestId('run-status')).toHaveTextContent('Running in Roblox'));
    expect(within(part).queryByRole('button', { name: 'Cancel run' })).not.toBeInTheDocument();
    socket.serverSends('execution:logs', {
      executionId: 'r6',
      state: 'running',
      lines: [
        { message: 'saving coins', type: 'output', time: null },
        { message: 'slow DataStore', type: 'warning', time: null },
      ],
    });
    const log = await within(part).findByRole('log', { name: 'Roblox log' });
    await waitFor(() =>
      expect(
        within(log)
          .getAllByRole('listitem')
          .map((line) => line.textContent),
      ).toEqual(['saving coins', 'Warning: slow DataStore']),
    );
  });

  it('says so when a run is not in the history', async () => {
    renderWithProviders(<Screen />, { route: '/runs?id=gone' });
    const detail = await screen.findByTestId('run-detail');
    expect(
      await within(detail).findByText(
        'This run is not in your history. It may have been removed by the history’s retention.',
      ),
    ).toBeInTheDocument();
  });

  it('marks the open run’s row, and only it', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().filter((row) => row.hasAttribute('data-selected'))).toEqual([]);
    await userEvent.click(rowOf('r2'));
    await waitFor(() => expect(rowOf('r2')).toHaveAttribute('data-selected'));
    expect(rowOf('r2')).toHaveAttribute('aria-selected', 'true');
    expect(rowOf('r3')).not.toHaveAttribute('data-selected');
    expect(rowOf('r1')).not.toHaveAttribute('data-selected');
  });

  it('brings the next page by itself when the runs loaded do not fill the view', async () => {
    pages = {
      '': { runs: [GREETER, GAME, LIMIT], nextCursor: 'c1' },
      'cursor=c1': { runs: [OLDER], nextCursor: null },
    };
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows().map((row) => row.dataset.runId)).toEqual(['r3', 'r2', 'r1', 'r0']));
    expect(listRequests().map((request) => request.url)).toEqual(['/api/executions', '/api/executions?cursor=c1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});

describe('RunsScreen with a long history', () => {
  const STEP_MS = 1000;
  const many = (count: number, from = 0) =>
    Array.from({ length: count }, (_, offset) =>
      summary({
        id: `run-${from + offset}`,
        createdAt: new Date(Date.parse('2026-03-01T12:00:00.000Z') - (from + offset) * STEP_MS).toISOString(),
      }),
    );
  const table = () => screen.getByRole('table', { name: 'Runs' });
  const cursorRequests = () => listRequests().filter((request) => request.url.includes('cursor='));

  beforeEach(() => {
    pages = {
      '': { runs: many(1000), nextCursor: 'c1' },
      'cursor=c1': { runs: many(50, 1000), nextCursor: null },
    };
  });

  it('draws only the rows in view of a thousand runs, in a table that still counts them', async () => {
    contentHeight(1000 * RUN_ROW_HEIGHT);
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    // The 15 rows in view and a few past the edge, not a thousand.
    expect(rows().length).toBeGreaterThanOrEqual(15);
    expect(rows().length).toBeLessThan(40);
    expect(rows()[0]!.dataset.runId).toBe('run-0');
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    // More remain on the server: how many is not known.
    expect(table()).toHaveAttribute('aria-rowcount', '-1');
    // Far from the end: no page is asked for.
    expect(cursorRequests()).toEqual([]);
    // The scroll area scrolls, so the keyboard can reach it.
    const region = screen.getByRole('region', { name: 'Run history' });
    await waitFor(() => expect(region).toHaveAttribute('tabindex', '0'));

    // Halfway down: the rows there, with their places in the whole list, and space for the others.
    scrollTo(500 * RUN_ROW_HEIGHT);
    await waitFor(() => expect(rows().some((row) => row.dataset.runId === 'run-500')).toBe(true));
    expect(rows().some((row) => row.dataset.runId === 'run-0')).toBe(false);
    expect(rowOf('run-500')).toHaveAttribute('aria-rowindex', '502');
    expect(rows().length).toBeLessThan(50);
    const spacers = table().querySelectorAll('tbody > tr[aria-hidden]');
    expect(spacers).toHaveLength(2);
    const heights = [...spacers].map((spacer) => parseInt((spacer as HTMLElement).style.height, 10));
    expect(heights[0]! + heights[1]! + rows().length * RUN_ROW_HEIGHT).toBe(1000 * RUN_ROW_HEIGHT);
    expect(cursorRequests()).toEqual([]);
  });

  it('asks for the next page as the end of the loaded runs comes into view', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    expect(cursorRequests()).toEqual([]);

    scrollTo(1000 * RUN_ROW_HEIGHT - VIEW_HEIGHT);
    await waitFor(() => expect(cursorRequests().map((request) => request.url)).toEqual(['/api/executions?cursor=c1']));
    await waitFor(() => expect(table()).toHaveAttribute('aria-rowcount', '1051'));
    // The last page came: nothing more to ask for, by scrolling or by the button.
    scrollTo(1050 * RUN_ROW_HEIGHT - VIEW_HEIGHT);
    await waitFor(() => expect(rows().at(-1)!.dataset.runId).toBe('run-1049'));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(cursorRequests()).toHaveLength(1);
  });

  it('loads the next page by the button too, the keyboard’s way', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    const more = await screen.findByRole('button', { name: 'Load more' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(cursorRequests().map((request) => request.url)).toEqual(['/api/executions?cursor=c1']));
    await waitFor(() => expect(table()).toHaveAttribute('aria-rowcount', '1051'));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('keeps the time of each drawn run a link Tab reaches, one row after another', async () => {
    renderWithProviders(<Screen />, { route: '/runs' });
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    const links = rows().map((row) => within(row).getByRole('link'));
    links[0]!.focus();
    expect(links[0]).toHaveAttribute('href', '/runs?id=run-0');
    await userEvent.tab();
    expect(links[1]).toHaveFocus();
    await userEvent.tab();
    expect(links[2]).toHaveFocus();
  });
});
