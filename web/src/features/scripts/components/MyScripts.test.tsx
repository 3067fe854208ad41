import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { MyScripts } from './MyScripts.tsx';
import { makeScript, signIn } from './test-scripts.ts';

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

beforeEach(signIn);
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('MyScripts', () => {
  it('shows the count, each script and narrows by search and type', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
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

    const search = screen.getByPlaceholderText('Search scripts...');
    // Matches the description, whatever the case.
    await userEvent.type(search, 'fast');
    expect(rowNames()).toEqual(['Speed']);
    await userEvent.clear(search);
    await userEvent.type(search, 'FLY');
    expect(rowNames()).toEqual(['Fly Hack']);
    await userEvent.clear(search);

    const type = screen.getByRole('combobox', { name: 'Filter scripts by type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All Scripts', 'Auto-Execute', 'Manual']);
    await userEvent.selectOptions(type, 'Auto-Execute');
    expect(rowNames()).toEqual(['Fly Hack', 'Teleport']);
    await userEvent.selectOptions(type, 'Manual');
    expect(rowNames()).toEqual(['Speed']);

    await userEvent.type(search, 'teleport');
    expect(screen.getByText('No scripts match your search criteria.')).toBeInTheDocument();
    // The count is of all scripts, not of the ones shown.
    expect(screen.getByRole('heading', { name: 'My Scripts (3)' })).toBeInTheDocument();
  });

  it("reads 'Loading scripts...' until the list arrives", async () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('Loading scripts...')).toBeInTheDocument();
  });

  it('invites to create a first script when there is none', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [] }) }));
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('No scripts yet. Create your first script to get started.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Scripts (0)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Script' })).toHaveAttribute('href', '/editor');
  });

  it("shows the server's text when the list cannot load", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/scripts': () => ({ status: 500, body: { error: 'Internal server error' } }) }),
    );
    renderWithProviders(<MyScripts />);
    expect(await screen.findByText('Failed to load scripts')).toBeInTheDocument();
    expect(screen.getByText('Internal server error')).toBeInTheDocument();
  });

  it('duplicates as a manual copy and refreshes the list', async () => {
    const copy = makeScript({ id: 's4', name: 'Fly Hack (Copy)', description: 'Lets you fly' });
    let list = scripts;
    const created = vi.fn();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts': () => ({ body: list }),
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
        'GET /api/scripts': () => ({ body: scripts }),
        'POST /api/scripts': () => ({ status: 500, body: { error: 'Internal server error' } }),
      }),
    );
    renderWithProviders(<MyScripts />);
    await userEvent.click(within(await findRowOf('Speed')).getByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to duplicate script. Please try again.')).toBeInTheDocument();
  });

  it('asks before deleting and sends nothing when cancelled', async () => {
    const fetch = vi.fn(jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
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
        'GET /api/scripts': () => ({ body: list }),
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
    expect(rowNames()).toEqual(['Fly Hack', 'Teleport']);
  });

  it('reports a failed delete', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts': () => ({ body: scripts }),
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
    const respond = jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) });
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
        'GET /api/scripts': () => ({ body: scripts }),
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
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
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
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual(['Speed']);
    await userEvent.type(screen.getByPlaceholderText('Search scripts...'), 'zzz');
    expect(screen.getByText('No scripts match your search criteria.')).toBeInTheDocument();
  });

  it("takes Tab through each card's actions in order, card after card", async () => {
    phoneScreen();
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
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
      'GET /api/scripts': () => ({ body: list }),
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
