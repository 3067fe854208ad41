import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Script } from '@moonrelay/contract/scripts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { MyScripts } from './MyScripts.tsx';
import { SCRIPT_CARD_ESTIMATE } from './ScriptCards.tsx';
import { SCRIPT_ROW_HEIGHT } from './ScriptsTable.tsx';
import { layOutScripts, makeScript, scriptPages, signIn } from './test-scripts.ts';

const fly = makeScript({
  id: 's1',
  name: 'Fly Hack',
  description: 'Lets you fly',
  isAutoExecute: true,
  executionCount: 4,
});
const speed = makeScript({ id: 's2', name: 'Speed', description: 'Run FAST everywhere' });
const teleport = makeScript({ id: 's3', name: 'Teleport', isAutoExecute: true });
const scripts = [fly, speed, teleport];
/** The list call's answer over `list` (the server's paging, search and type filter). */
const PAGE = 'GET /api/scripts/page';
const pagesOf = (list: Script[]) => scriptPages(() => list);

/** The names in the table, top to bottom (the first row is the header). */
function rowNames(): string[] {
  return screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell')[0]?.querySelector('p')?.textContent ?? '');
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

async function findRowOf(name: string): Promise<HTMLElement> {
  await screen.findByText(name);
  return rowOf(name);
}

/** The scroll area's view: 15 rows high. */
const VIEW_HEIGHT = 15 * SCRIPT_ROW_HEIGHT;
beforeEach(() => {
  signIn();
  layOutScripts({ view: VIEW_HEIGHT });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('MyScripts', () => {
  it('shows the count, each script and narrows by search and type, asking the server', async () => {
    const asked: string[] = [];
    const answer = pagesOf(scripts);
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: (body, url) => {
          asked.push(url!.search);
          return answer(body, url);
        },
      }),
    );
    renderWithProviders(<MyScripts />);

    expect(await screen.findByRole('heading', { name: 'My Scripts (3)' })).toBeInTheDocument();
    expect(rowNames()).toEqual(['Fly Hack', 'Speed', 'Teleport']);
    const teleportRow = rowOf('Teleport');
    expect(within(teleportRow).getByText('No description')).toBeInTheDocument();
    expect(within(teleportRow).getByText('Auto-Execute')).toBeInTheDocument();
    expect(within(rowOf('Speed')).getByText('Manual')).toBeInTheDocument();
    expect(within(rowOf('Fly Hack')).getByText('4')).toBeInTheDocument();
    expect(within(rowOf('Speed')).getByText('3 hours ago')).toHaveAttribute('title');
    expect(within(rowOf('Speed')).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/editor?id=s2');
    expect(asked).toEqual(['']);

    const search = screen.getByPlaceholderText('Search scripts...');
    // Matches the description, whatever the case; the server is asked once the typing pauses.
    await userEvent.type(search, 'fast');
    await waitFor(() => expect(rowNames()).toEqual(['Speed']));
    expect(asked).toEqual(['', '?q=fast']);
    await userEvent.clear(search);
    await userEvent.type(search, 'FLY');
    await waitFor(() => expect(rowNames()).toEqual(['Fly Hack']));
    expect(asked.at(-1)).toBe('?q=FLY');
    // The matches are counted beside the search; without one, no count is said.
    expect(screen.getByTestId('scripts-matching')).toHaveTextContent('1 of 3 scripts matches');
    await userEvent.clear(search);
    await waitFor(() => expect(rowNames()).toEqual(['Fly Hack', 'Speed', 'Teleport']));
    expect(screen.queryByTestId('scripts-matching')).not.toBeInTheDocument();

    const type = screen.getByRole('combobox', { name: 'Filter scripts by type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All Scripts', 'Auto-Execute', 'Manual']);
    await userEvent.selectOptions(type, 'Auto-Execute');
    await waitFor(() => expect(rowNames()).toEqual(['Fly Hack', 'Teleport']));
    expect(asked.at(-1)).toBe('?type=auto');
    expect(screen.getByTestId('scripts-matching')).toHaveTextContent('2 of 3 scripts match');
    await userEvent.selectOptions(type, 'Manual');
    await waitFor(() => expect(rowNames()).toEqual(['Speed']));

    await userEvent.type(search, 'teleport');
    expect(await screen.findByText('No scripts match your search criteria.')).toBeInTheDocument();
    expect(asked.at(-1)).toBe('?q=teleport&type=manual');
    // The count is of all scripts, not of the ones shown.
    expect(screen.getByRole('heading', { name: 'My Scripts (3)' })).toBeInTheDocument();
  });

  it("reads 'Loading scripts...' until the list arrives", async () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('Loading scripts...')).toBeInTheDocument();
  });

  it('invites to create a first script when there is none', async () => {
    vi.stubGlobal('fetch', jsonFetch({ [PAGE]: pagesOf([]) }));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('No scripts yet. Create your first script to get started.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Scripts (0)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Script' })).toHaveAttribute('href', '/editor');
  });

  it("shows the server's text when the list cannot load", async () => {
    vi.stubGlobal('fetch', jsonFetch({ [PAGE]: () => ({ status: 500, body: { error: 'Internal server error' } }) }));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('Failed to load scripts')).toBeInTheDocument();
    expect(screen.getByText('Internal server error')).toBeInTheDocument();
  });

  it('duplicates as a manual copy, with the code read from the script, and refreshes the list', async () => {
    const copy = makeScript({ id: 's4', name: 'Fly Hack (Copy)', description: 'Lets you fly' });
    let list = scripts;
    const created = vi.fn();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: scriptPages(() => list),
        // The list has no code: the copy reads it from the script itself.
        'GET /api/scripts/s1': () => ({ body: fly }),
        'POST /api/scripts': (body) => {
          created(body);
          list = [copy, ...scripts];
          return { status: 201, body: copy };
        },
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Fly Hack')).getByRole('button', { name: 'Duplicate' }));

    expect(await screen.findByText('Script Duplicated')).toBeInTheDocument();
    expect(created).toHaveBeenCalledWith({
      name: 'Fly Hack (Copy)',
      description: 'Lets you fly',
      code: fly.code,
      isAutoExecute: false,
    });
    expect(await screen.findByRole('heading', { name: 'My Scripts (4)' })).toBeInTheDocument();
  });

  it('reports a failed duplicate', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: pagesOf(scripts),
        'GET /api/scripts/s2': () => ({ body: speed }),
        'POST /api/scripts': () => ({ status: 500, body: { error: 'Internal server error' } }),
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to duplicate script. Please try again.')).toBeInTheDocument();
  });

  it('asks before deleting and sends nothing when cancelled', async () => {
    const fetch = vi.fn(jsonFetch({ [PAGE]: pagesOf(scripts) }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Delete script?' });
    expect(dialog).toHaveTextContent('“Speed” will be deleted. This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls.every(([, init]) => (init?.method ?? 'GET') === 'GET')).toBe(true);
    expect(screen.getByText('Speed')).toBeInTheDocument();
  });

  it('deletes after confirmation', async () => {
    let list = scripts;
    const deleted = vi.fn();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: scriptPages(() => list),
        'DELETE /api/scripts/s2': () => {
          deleted();
          list = [fly, teleport];
          return { body: { success: true } };
        },
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete script?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Script Deleted')).toBeInTheDocument();
    expect(deleted).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(rowNames()).toEqual(['Fly Hack', 'Teleport']));
    expect(screen.getByRole('heading', { name: 'My Scripts (2)' })).toBeInTheDocument();
  });

  it('reports a failed delete', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: pagesOf(scripts),
        'DELETE /api/scripts/s2': () => ({ status: 404, body: { error: 'Script not found' } }),
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete script?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    // Still open, to try again or cancel.
    expect(screen.getByRole('alertdialog', { name: 'Delete script?' })).toBeInTheDocument();
    expect(screen.getByText('Failed to delete script. Please try again.')).toBeInTheDocument();
  });

  it("reports a failed execution with the server's text, disabling the row meanwhile", async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    // No execute route: the stub answers 404 { error: 'Not found' }, as the server does today.
    const respond = jsonFetch({ [PAGE]: pagesOf(scripts) });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') await answered;
      return respond(input, init);
    });
    renderWithProviders(<MyScripts />);
    const row = await findRowOf('Fly Hack');
    await userEvent.click(within(row).getByRole('button', { name: 'Execute' }));

    for (const name of ['Edit', 'Execute', 'Duplicate', 'Delete']) {
      expect(within(row).getByRole('button', { name })).toBeDisabled();
    }
    expect(within(rowOf('Speed')).getByRole('button', { name: 'Execute' })).toBeEnabled();

    release();
    expect(await screen.findByText('Execution Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to execute script. Please try again. (Not found)')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Execute' })).toBeEnabled());
  });

  it("toasts 'Script Executed' with the output", async () => {
    const body = vi.fn();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: pagesOf(scripts),
        'POST /api/scripts/s2/execute': (sent) => {
          body(sent);
          return { body: { success: true, output: 'hello' } };
        },
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Script Executed')).toBeInTheDocument();
    expect(screen.getByText('hello')).toBeInTheDocument();
    expect(body).toHaveBeenCalledWith({});
  });
});

/** A phone-wide window: matchMedia answers the narrow-screen query (jsdom has no matchMedia). */
function phoneScreen() {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: query === '(max-width: 47.99em)',
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }),
  });
  onTestFinished(() => {
    delete (window as Partial<Window>).matchMedia;
  });
}

const cards = () => within(screen.getByRole('list', { name: 'Scripts' })).getAllByRole('listitem');
const cardOf = (name: string) => {
  const card = cards().find((item) => within(item).queryByRole('heading', { name }));
  if (!card) throw new Error(`no card for ${name}`);
  return card;
};

describe('MyScripts on a phone', () => {
  it('shows a card per script, with everything the table has and no table', async () => {
    phoneScreen();
    vi.stubGlobal('fetch', jsonFetch({ [PAGE]: pagesOf(scripts) }));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByRole('heading', { name: 'My Scripts (3)' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Fly Hack',
      'Speed',
      'Teleport',
    ]);
    const flyCard = cardOf('Fly Hack');
    expect(within(flyCard).getByText('Lets you fly')).toBeInTheDocument();
    expect(within(flyCard).getByText('Auto-Execute')).toBeInTheDocument();
    expect(within(flyCard).getByTestId('script-card-executions')).toHaveTextContent('4 executions');
    expect(within(cardOf('Teleport')).getByText('No description')).toBeInTheDocument();
    expect(within(cardOf('Speed')).getByText('Manual')).toBeInTheDocument();
    expect(within(cardOf('Speed')).getByText('3 hours ago')).toHaveAttribute('title');
    expect(within(cardOf('Speed')).getByTestId('script-card-executions')).toHaveTextContent('0 executions');
    expect(within(cardOf('Speed')).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/editor?id=s2');

    // The search narrows the cards as it does the rows.
    await userEvent.type(screen.getByPlaceholderText('Search scripts...'), 'fast');
    await waitFor(() =>
      expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual(['Speed']),
    );
    await userEvent.type(screen.getByPlaceholderText('Search scripts...'), 'zzz');
    expect(await screen.findByText('No scripts match your search criteria.')).toBeInTheDocument();
  });

  it("takes Tab through each card's actions in order, card after card", async () => {
    phoneScreen();
    vi.stubGlobal('fetch', jsonFetch({ [PAGE]: pagesOf(scripts) }));
    renderWithProviders(<MyScripts />);
    await screen.findByRole('heading', { name: 'Fly Hack' });
    within(cardOf('Fly Hack')).getByRole('link', { name: 'Edit' }).focus();
    const reached = [`${document.activeElement?.textContent?.trim()}`];
    for (let press = 0; press < 4; press += 1) {
      await userEvent.tab();
      const card = document.activeElement?.closest('li');
      reached.push(
        `${card && within(card).getByRole('heading').textContent}: ${document.activeElement?.textContent?.trim()}`,
      );
    }
    expect(reached).toEqual(['Edit', 'Fly Hack: Execute', 'Fly Hack: Duplicate', 'Fly Hack: Delete', 'Speed: Edit']);
  });

  it("runs and deletes from a card, the card's actions waiting while it runs", async () => {
    phoneScreen();
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    let list = scripts;
    const respond = jsonFetch({
      [PAGE]: scriptPages(() => list),
      'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: 'flying' } }),
      'DELETE /api/scripts/s2': () => {
        list = [fly, teleport];
        return { body: { success: true } };
      },
    });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/execute')) await answered;
      return respond(input, init);
    });
    renderWithProviders(<MyScripts />);
    await screen.findByRole('heading', { name: 'Fly Hack' });
    await userEvent.click(within(cardOf('Fly Hack')).getByRole('button', { name: 'Execute' }));
    for (const name of ['Edit', 'Execute', 'Duplicate', 'Delete']) {
      expect(within(cardOf('Fly Hack')).getByRole('button', { name })).toBeDisabled();
    }
    expect(cardOf('Fly Hack')).toHaveAttribute('aria-busy', 'true');
    expect(within(cardOf('Speed')).getByRole('button', { name: 'Execute' })).toBeEnabled();
    release();
    expect(await screen.findByText('Script Executed')).toBeInTheDocument();
    await waitFor(() => expect(within(cardOf('Fly Hack')).getByRole('link', { name: 'Edit' })).toBeInTheDocument());

    await userEvent.click(within(cardOf('Speed')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete script?' });
    expect(dialog).toHaveTextContent('“Speed” will be deleted. This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Script Deleted')).toBeInTheDocument();
    await waitFor(() =>
      expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual(['Fly Hack', 'Teleport']),
    );
  });
});

describe('MyScripts with a thousand scripts', () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      makeScript({
        id: `script-${index}`,
        name: `Script ${String(index).padStart(4, '0')}`,
        description: `Seeded script ${index}`,
        updatedAt: new Date(Date.parse('2026-03-01T12:00:00.000Z') - index * 1000).toISOString(),
      }),
    );
  const THOUSAND = many(1000);
  let asked: string[];
  function serve(list: Script[], options: { pageSize?: number } = {}) {
    asked = [];
    const answer = scriptPages(() => list, options);
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PAGE]: (body, url) => {
          asked.push(url!.search);
          return answer(body, url);
        },
      }),
    );
  }
  const rows = () => screen.getAllByTestId('script-row');
  const rowById = (id: string) => rows().find((row) => row.dataset.scriptId === id);
  const table = () => screen.getByRole('table', { name: 'Scripts' });
  const scroller = () => screen.getByTestId('scripts-scroller');
  function scrollTo(top: number) {
    scroller().scrollTop = top;
    fireEvent.scroll(scroller());
  }

  it('draws only the rows in view, in a table that still counts them', async () => {
    // All thousand in one answer: what is drawn is the question here, not the paging.
    serve(THOUSAND, { pageSize: 1000 });
    layOutScripts({ view: VIEW_HEIGHT, content: 1000 * SCRIPT_ROW_HEIGHT });
    renderWithProviders(<MyScripts />);
    expect(await screen.findByRole('heading', { name: 'My Scripts (1000)' })).toBeInTheDocument();
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    // The 15 rows in view and a few past the edge, not a thousand.
    expect(rows().length).toBeGreaterThanOrEqual(15);
    expect(rows().length).toBeLessThan(40);
    expect(rows()[0]!.dataset.scriptId).toBe('script-0');
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(table()).toHaveAttribute('aria-rowcount', '1001');
    // The scroll area scrolls, so the keyboard can reach it.
    const region = screen.getByRole('region', { name: 'Scripts' });
    await waitFor(() => expect(region).toHaveAttribute('tabindex', '0'));

    // Halfway down: the rows there, with their places in the whole list, and space for the others.
    scrollTo(500 * SCRIPT_ROW_HEIGHT);
    await waitFor(() => expect(rowById('script-500')).toBeDefined());
    expect(rowById('script-0')).toBeUndefined();
    expect(rowById('script-500')).toHaveAttribute('aria-rowindex', '502');
    expect(rows().length).toBeLessThan(50);
    const spacers = table().querySelectorAll('tbody > tr[data-spacer][aria-hidden]');
    expect(spacers).toHaveLength(2);
    const heights = [...spacers].map((spacer) => parseInt((spacer as HTMLElement).style.height, 10));
    expect(heights[0]! + heights[1]! + rows().length * SCRIPT_ROW_HEIGHT).toBe(1000 * SCRIPT_ROW_HEIGHT);
    // A drawn row's actions work as before.
    expect(within(rowById('script-500')!).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/editor?id=script-500',
    );
    expect(asked).toEqual(['']);
  });

  it('asks for the next page by cursor as the end of the loaded scripts comes into view', async () => {
    serve(many(120));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByRole('heading', { name: 'My Scripts (120)' })).toBeInTheDocument();
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    // More remain on the server: how many rows the table will have is not known yet.
    expect(table()).toHaveAttribute('aria-rowcount', '-1');
    expect(asked).toEqual(['']);

    scrollTo(50 * SCRIPT_ROW_HEIGHT - VIEW_HEIGHT);
    await waitFor(() => expect(asked).toEqual(['', '?cursor=50']));
    scrollTo(100 * SCRIPT_ROW_HEIGHT - VIEW_HEIGHT);
    await waitFor(() => expect(asked).toEqual(['', '?cursor=50', '?cursor=100']));
    await waitFor(() => expect(table()).toHaveAttribute('aria-rowcount', '121'));
    scrollTo(120 * SCRIPT_ROW_HEIGHT - VIEW_HEIGHT);
    await waitFor(() => expect(rows().at(-1)!.dataset.scriptId).toBe('script-119'));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(asked).toHaveLength(3);
  });

  it('starts a new search at the top of its list, not where the last list was scrolled to', async () => {
    serve(many(120));
    layOutScripts({ view: VIEW_HEIGHT, content: 120 * SCRIPT_ROW_HEIGHT });
    renderWithProviders(<MyScripts />);
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    scrollTo(40 * SCRIPT_ROW_HEIGHT);
    await waitFor(() => expect(rowById('script-40')).toBeDefined());
    await userEvent.type(screen.getByPlaceholderText('Search scripts...'), 'seeded');
    await waitFor(() => expect(asked.at(-1)).toBe('?q=seeded'));
    await waitFor(() => expect(rows()[0]!.dataset.scriptId).toBe('script-0'));
    expect(scroller().scrollTop).toBe(0);
  });

  it('loads the next page by the button too, the keyboard’s way, with the search kept', async () => {
    serve(many(120));
    renderWithProviders(<MyScripts />);
    await userEvent.type(screen.getByPlaceholderText('Search scripts...'), 'seeded');
    await waitFor(() => expect(asked).toEqual(['', '?q=seeded']));
    const more = await screen.findByRole('button', { name: 'Load more' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(asked.at(-1)).toBe('?q=seeded&cursor=50'));
    await screen.findByRole('button', { name: 'Load more' });
  });

  it('draws only the cards in view on a phone', async () => {
    phoneScreen();
    serve(THOUSAND, { pageSize: 1000 });
    const CARD = SCRIPT_CARD_ESTIMATE;
    layOutScripts({ view: 4 * CARD, content: 1000 * CARD, card: CARD });
    renderWithProviders(<MyScripts />);
    await screen.findByRole('heading', { name: 'Script 0000' });
    // The four cards in view and a few past the edge.
    expect(cards().length).toBeGreaterThanOrEqual(4);
    expect(cards().length).toBeLessThan(12);
    expect(cards()[0]).toHaveAttribute('aria-posinset', '1');
    expect(cards()[0]).toHaveAttribute('aria-setsize', '1000');

    scrollTo(600 * CARD);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Script 0600' })).toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Script 0000' })).not.toBeInTheDocument();
    expect(cardOf('Script 0600')).toHaveAttribute('aria-posinset', '601');
    expect(cards().length).toBeLessThan(12);
    const spacers = screen.getByRole('list', { name: 'Scripts' }).querySelectorAll('li[data-spacer][aria-hidden]');
    expect(spacers).toHaveLength(2);
  });
});
