import { notConnectedAnswer } from '../../../test/fixtures.ts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { ERRORS } from '@moonrelay/contract/messages';
import { useSession } from '../../../lib/session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { CatalogueScreen } from './CatalogueScreen.tsx';

function script(n: number, overrides: Partial<CatalogueScript> = {}): CatalogueScript {
  return {
    _id: `id${n}`,
    title: `Script ${n}`,
    game: {
      _id: '2753915549',
      name: 'Blox Fruits',
      imageUrl: `https://scriptblox.com/images/${n}.png`,
      universeId: null,
    },
    image: null,
    views: 10 * n,
    verified: false,
    isUniversal: false,
    isPatched: false,
    keySystem: false,
    createdAt: '2026-03-01T12:00:00.000Z',
    executorFunctions: [],
    ...overrides,
  };
}

const page = (scripts: CatalogueScript[], nextPage: number | null = 2) => ({
  result: { scripts, totalPages: 3, nextPage },
});
const fullPage = (from: number) => Array.from({ length: 20 }, (_, i) => script(from + i));

interface Call {
  method: string;
  url: string;
  body: unknown;
}
type Answer = { status?: number; body: unknown };

/** A fetch stub answering by "METHOD path" (the query string is kept in the recorded URL). */
function stubApi(routes: Record<string, (url: URL, body: unknown) => Answer>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: url.pathname + url.search, body });
    const route = routes[`${method} ${url.pathname}`];
    const { status = 200, body: answer } = route ? route(url, body) : { status: 404, body: { error: 'Not found' } };
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const catalogueRoutes = {
  'GET /api/scriptblox/fetch': (url: URL) => {
    const n = Number(url.searchParams.get('page'));
    return { body: n === 3 ? page([script(41), script(42)], null) : page(fullPage(n * 100)) };
  },
  'GET /api/scriptblox/trending': () => ({ body: page([script(7, { title: 'Trending One' })], null) }),
  'GET /api/scriptblox/search': (url: URL) => ({
    body: page([script(9, { title: `Found ${url.searchParams.get('q')}` })], null),
  }),
};

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

const card = (title: string) => screen.findByRole('article', { name: title });
const pageNumber = () => screen.getByTestId('page-number').textContent;
const requested = (calls: Call[], prefix: string) =>
  calls.filter((call) => call.url.startsWith(prefix)).map((c) => c.url);

describe('CatalogueScreen', () => {
  it('shows a card with its image, title, game, verified icon, views, badges and date', async () => {
    stubApi({
      'GET /api/scriptblox/fetch': () => ({
        body: page([
          script(1, { title: 'Hub', verified: true, views: 1_234, isPatched: true, keySystem: true }),
          script(2, {
            title: 'Admin',
            isUniversal: true,
            game: { _id: null, name: 'Universal Script', imageUrl: null, universeId: null },
            views: 2_500_000,
            executorFunctions: ['game:HttpGet', 'getgenv'],
          }),
        ]),
      }),
    });
    renderWithProviders(<CatalogueScreen />);
    const hub = await card('Hub');
    expect(within(hub).getByRole('img', { name: 'Blox Fruits' })).toHaveAttribute(
      'src',
      'https://scriptblox.com/images/1.png',
    );
    expect(within(hub).getByText('Blox Fruits')).toBeInTheDocument();
    expect(within(hub).getByRole('img', { name: 'Verified' })).toBeInTheDocument();
    expect(within(hub).getByTestId('views')).toHaveTextContent('1.2K');
    expect(within(hub).getByText('Patched')).toBeInTheDocument();
    expect(within(hub).getByText('Key System')).toBeInTheDocument();
    expect(within(hub).queryByText('Universal')).toBeNull();
    expect(within(hub).getByText('Mar 1, 2026')).toBeInTheDocument();
    for (const name of ['Preview', 'Execute', 'Save']) expect(within(hub).getByRole('button', { name })).toBeEnabled();

    const admin = await card('Admin');
    expect(within(admin).getByText('Universal Script')).toBeInTheDocument();
    expect(within(admin).getByText('Universal')).toBeInTheDocument();
    expect(within(admin).getByTestId('views')).toHaveTextContent('2.5M');
    expect(within(admin).queryByRole('img', { name: 'Verified' })).toBeNull();
    expect(within(admin).getByText('Executor only').closest('[title]')).toHaveAttribute(
      'title',
      'Calls executor-only functions: game:HttpGet, getgenv',
    );
    expect(within(admin).getByTestId('image-placeholder')).toBeInTheDocument();

    expect(screen.getByRole('link', { name: /ScriptBlox/ })).toHaveAttribute('href', 'https://scriptblox.com');
    expect(screen.getByText('Powered by', { exact: false })).toBeInTheDocument();
  });

  it('pages with Previous and Next; Next is off under 20 results, Previous on page 1', async () => {
    const calls = stubApi(catalogueRoutes);
    renderWithProviders(<CatalogueScreen />);
    await card('Script 100');
    expect(pageNumber()).toBe('Page 1');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await card('Script 200');
    expect(pageNumber()).toBe('Page 2');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await card('Script 41');
    expect(pageNumber()).toBe('Page 3');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await card('Script 200');
    expect(requested(calls, '/api/scriptblox/fetch')).toEqual([
      '/api/scriptblox/fetch?page=1&max=20',
      '/api/scriptblox/fetch?page=2&max=20',
      '/api/scriptblox/fetch?page=3&max=20',
    ]);
  });

  it('resets to page 1 on a tab switch; a search goes to Search Results, page 1', async () => {
    const calls = stubApi(catalogueRoutes);
    renderWithProviders(<CatalogueScreen />);
    await card('Script 100');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await card('Script 200');

    await userEvent.click(screen.getByRole('tab', { name: 'Trending' }));
    await card('Trending One');
    expect(pageNumber()).toBe('Page 1');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    // Search Results before any search asks for nothing.
    await userEvent.click(screen.getByRole('tab', { name: 'Search Results' }));
    // The tab being left may still be unmounting for a moment.
    await waitFor(() =>
      expect(screen.getAllByText('Type a search term above to find scripts by title.')).toHaveLength(1),
    );
    // A blank term does not search.
    await userEvent.type(screen.getByRole('textbox', { name: 'Search scripts' }), '   {Enter}');
    expect(requested(calls, '/api/scriptblox/search')).toEqual([]);

    await userEvent.click(screen.getByRole('tab', { name: 'Home' }));
    await card('Script 100');
    expect(pageNumber()).toBe('Page 1');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await card('Script 200');
    const input = screen.getByRole('textbox', { name: 'Search scripts' });
    await userEvent.clear(input);
    await userEvent.type(input, ' fly gui ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await card('Found fly gui');
    expect(screen.getByRole('tab', { name: 'Search Results' })).toHaveAttribute('aria-selected', 'true');
    expect(pageNumber()).toBe('Page 1');
    expect(requested(calls, '/api/scriptblox/search')).toEqual(['/api/scriptblox/search?q=fly%20gui&page=1&max=20']);
  });

  it('says so when the catalogue is unavailable, and tries again on request', async () => {
    let up = false;
    stubApi({
      'GET /api/scriptblox/fetch': () =>
        up ? { body: page([script(1)]) } : { status: 502, body: { error: 'Script catalogue unavailable' } },
    });
    renderWithProviders(<CatalogueScreen />);
    const error = await screen.findByTestId('catalogue-error');
    expect(within(error).getByText('Script catalogue unavailable')).toBeInTheDocument();
    up = true;
    await userEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await card('Script 1');
  });

  it('says how old the results are when the catalogue answered a kept copy (stale), and nothing when fresh', async () => {
    const fetchedAt = new Date(Date.now() - 7 * 60_000).toISOString();
    stubApi({
      ...catalogueRoutes,
      'GET /api/scriptblox/fetch': () => ({ body: { ...page([script(1)]), stale: { fetchedAt } } }),
    });
    renderWithProviders(<CatalogueScreen />);
    const notice = await screen.findByTestId('catalogue-stale');
    expect(within(notice).getByText('Showing results from 7 minutes ago')).toBeInTheDocument();
    expect(await card('Script 1')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Trending' }));
    await card('Trending One');
    expect(screen.queryByTestId('catalogue-stale')).not.toBeInTheDocument();
  });

  it('previews the code read-only with the executor note, and runs it from the dialog', async () => {
    const calls = stubApi({
      'GET /api/scriptblox/fetch': () => ({
        body: page([script(1, { title: 'Admin', executorFunctions: ['game:HttpGet'] })]),
      }),
      'GET /api/scriptblox/script/id1': () => ({
        body: {
          _id: 'id1',
          code: 'loadstring(game:HttpGet("x"))()\ngetgenv().on = true',
          executorFunctions: ['game:HttpGet', 'getgenv'],
        },
      }),
      'POST /api/scripts/execute': () => ({
        body: notConnectedAnswer(),
      }),
    });
    renderWithProviders(<CatalogueScreen />);
    await userEvent.click(within(await card('Admin')).getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Admin' });
    const note = await within(dialog).findByTestId('executor-note');
    expect(note).toHaveTextContent(
      'This script calls game:HttpGet, getgenv, which only client-side script executors provide.',
    );
    const code = await within(dialog).findByTestId('catalogue-code');
    await waitFor(() => expect(code.querySelector('.ace_editor')).not.toBeNull());
    const editor = (
      code.querySelector('.ace_editor') as HTMLElement & {
        env: { editor: { getValue(): string; getReadOnly(): boolean } };
      }
    ).env.editor;
    expect(editor.getValue()).toContain('getgenv().on = true');
    expect(editor.getReadOnly()).toBe(true);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Execute' }));
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Game Not Connected')).toBeInTheDocument();
    expect(within(toast).getByText(ERRORS.gameNotConnectedInstructions)).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/scripts/execute')?.body).toEqual({
      code: 'loadstring(game:HttpGet("x"))()\ngetgenv().on = true',
    });
  });

  it("saves as 'ScriptBlox: {title}'; a long script through a temporary script and its loader", async () => {
    const long = `print("long")\n${'-- filler line to pass ten thousand characters\n'.repeat(250)}`;
    const calls = stubApi({
      'GET /api/scriptblox/fetch': () => ({
        body: page([script(1, { title: 'Short' }), script(2, { title: 'Long' })]),
      }),
      'GET /api/scriptblox/script/id1': () => ({ body: { _id: 'id1', code: 'print("short")', executorFunctions: [] } }),
      'GET /api/scriptblox/script/id2': () => ({ body: { _id: 'id2', code: long, executorFunctions: [] } }),
      'POST /api/scripts/temp': () => ({
        body: {
          id: 't1',
          url: 'http://h/api/scripts/load/t1?key=a.b.c',
          loadstring: 'loadstring(game:GetService("HttpService"):GetAsync("http://h/api/scripts/load/t1?key=a.b.c"))()',
        },
      }),
      'POST /api/scripts': (_url, body) => ({ body: { id: 's1', ...(body as object) } }),
    });
    renderWithProviders(<CatalogueScreen />);
    await userEvent.click(within(await card('Short')).getByRole('button', { name: 'Save' }));
    expect(within(await screen.findByTestId('toast')).getByText('Script Saved')).toBeInTheDocument();
    await userEvent.click(within(await card('Long')).getByRole('button', { name: 'Save' }));
    await screen.findByText('"ScriptBlox: Long" is in My Scripts.');

    const saved = calls
      .filter((call) => call.method === 'POST' && call.url === '/api/scripts')
      .map((call) => call.body);
    expect(saved[0]).toEqual({
      name: 'ScriptBlox: Short',
      description: 'Imported from ScriptBlox.',
      code: 'print("short")',
      isAutoExecute: false,
      gameId: '2753915549',
      gameName: 'Blox Fruits',
      gameImageUrl: 'https://scriptblox.com/images/1.png',
    });
    expect(calls.find((call) => call.url === '/api/scripts/temp')?.body).toEqual({ script: long });
    expect(saved[1]).toMatchObject({
      name: 'ScriptBlox: Long',
      code: 'loadstring(game:GetService("HttpService"):GetAsync("http://h/api/scripts/load/t1?key=a.b.c"))()',
    });
  });

  it("'Save to Auto-Execute' turns auto-execute on for the script's game; toasts 'Error' when saving fails", async () => {
    let fail = false;
    const calls = stubApi({
      'GET /api/scriptblox/fetch': () => ({ body: page([script(1, { title: 'Farm' })]) }),
      'GET /api/scriptblox/script/id1': () => ({ body: { _id: 'id1', code: 'print(1)', executorFunctions: [] } }),
      'POST /api/scripts': (_url, body) =>
        fail ? { status: 500, body: { error: 'Internal server error' } } : { body: { id: 's1', ...(body as object) } },
    });
    renderWithProviders(<CatalogueScreen />);
    await userEvent.click(within(await card('Farm')).getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Farm' });
    await within(dialog).findByTestId('catalogue-code');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save to Auto-Execute' }));
    await screen.findByText('"ScriptBlox: Farm" is in My Scripts and runs automatically when your game connects.');
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      isAutoExecute: true,
      autoExecuteGames: {
        '2753915549': { enabled: true, gameName: 'Blox Fruits', gameImageUrl: 'https://scriptblox.com/images/1.png' },
      },
    });

    fail = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save to Auto-Execute' }));
    const toast = await screen.findByText('Failed to save script. Please try again. (Internal server error)');
    expect(toast.closest('[data-testid="toast"]')).toHaveAttribute('data-type', 'error');
  });

  it("toasts 'Error' / 'Failed to execute script' when the call fails, and the game's answers otherwise", async () => {
    let answer: Answer = { status: 502, body: { error: 'Script catalogue unavailable' } };
    stubApi({
      'GET /api/scriptblox/fetch': () => ({ body: page([script(1, { title: 'Run me' })]) }),
      'GET /api/scriptblox/script/id1': () => answer,
      'POST /api/scripts/execute': () => ({
        body: { success: true, output: 'ran\n', error: null, queued: true, gameConnected: true, target: 'game' },
      }),
    });
    renderWithProviders(<CatalogueScreen />);
    const execute = within(await card('Run me')).getByRole('button', { name: 'Execute' });
    await userEvent.click(execute);
    const failed = await screen.findByTestId('toast');
    expect(within(failed).getByText('Error')).toBeInTheDocument();
    expect(within(failed).getByText('Failed to execute script (Script catalogue unavailable)')).toBeInTheDocument();

    answer = { body: { _id: 'id1', code: 'print("ran")', executorFunctions: [] } };
    await userEvent.click(execute);
    await screen.findByText('Script Executed');
    expect(screen.getByText('ran')).toBeInTheDocument();
  });
});
