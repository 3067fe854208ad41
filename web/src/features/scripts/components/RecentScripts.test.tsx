import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { RecentScripts } from './RecentScripts.tsx';
import { makeScript, signIn } from './test-scripts.ts';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

const scripts = [
  makeScript({ id: 's1', name: 'Fly', description: 'Lets you fly', isAutoExecute: true }),
  makeScript({ id: 's2', name: 'Speed' }),
  makeScript({ id: 's3', name: 'Teleport' }),
  makeScript({ id: 's4', name: 'Noclip' }),
  makeScript({ id: 's5', name: 'Heal' }),
];

describe('RecentScripts', () => {
  it('lists only the 3 newest scripts, with a link to all of them', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
    renderWithProviders(<RecentScripts />);

    expect(await screen.findByText('Fly')).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(screen.queryByText('Noclip')).not.toBeInTheDocument();
    expect(screen.queryByText('Heal')).not.toBeInTheDocument();

    const [first, second] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText('Lets you fly')).toBeInTheDocument();
    expect(within(first).getByText('Auto-Execute')).toBeInTheDocument();
    expect(within(first).getByText('3 hours ago')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/editor?id=s1');
    expect(within(second).getByText('No description')).toBeInTheDocument();
    expect(within(second).getByText('Manual')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recent Scripts' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View all' })).toHaveAttribute('href', '/scripts');
  });

  it('shows the empty text when there are no scripts', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [] }) }));
    renderWithProviders(<RecentScripts />);
    expect(await screen.findByText('No scripts yet. Create your first script to get started.')).toBeInTheDocument();
  });

  it("runs a script and reports a failure with the server's text", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts': () => ({ body: scripts }),
        'POST /api/scripts/s2/execute': () => ({ status: 409, body: { error: 'Game not connected' } }),
      }),
    );
    renderWithProviders(<RecentScripts />);
    await screen.findByText('Speed');
    const [, second] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    await userEvent.click(within(second).getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Execution Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to execute script. Please try again. (Game not connected)')).toBeInTheDocument();
  });

  it('reports a run the server answers with success false as a failure', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts': () => ({ body: scripts }),
        'POST /api/scripts/s1/execute': () => ({
          body: { success: false, error: 'Lua syntax error: unexpected symbol' },
        }),
      }),
    );
    renderWithProviders(<RecentScripts />);
    await screen.findByText('Fly');
    const [first] = screen.getAllByRole('listitem') as [HTMLElement];
    await userEvent.click(within(first).getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Execution Failed')).toBeInTheDocument();
    expect(
      screen.getByText('Failed to execute script. Please try again. (Lua syntax error: unexpected symbol)'),
    ).toBeInTheDocument();
  });

  it("toasts 'Script Executed' with 'No output' when the output is empty", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts': () => ({ body: scripts }),
        'POST /api/scripts/s1/execute': () => ({ body: { success: true, output: '' } }),
      }),
    );
    renderWithProviders(<RecentScripts />);
    await screen.findByText('Fly');
    const [first] = screen.getAllByRole('listitem') as [HTMLElement];
    await userEvent.click(within(first).getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Script Executed')).toBeInTheDocument();
    expect(screen.getByText('No output')).toBeInTheDocument();
  });
});
