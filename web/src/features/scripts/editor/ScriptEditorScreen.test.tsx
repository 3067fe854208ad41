import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptEditorScreen } from './ScriptEditorScreen.tsx';
import { storedScript } from './test-fixtures.ts';

// Ace cannot be driven in jsdom: a textarea stands in for it (luau-mode.test.ts uses the real Ace).
vi.mock('./LuaCodeEditor.tsx', async () => {
  const { createElement } = await import('react');
  return {
    LuaCodeEditor: (props: {
      value: string;
      onChange(value: string): void;
      readOnly?: boolean;
      initialLine?: number;
    }) =>
      createElement('textarea', {
        'aria-label': 'Code',
        'data-testid': 'code-editor',
        'data-initial-line': props.initialLine,
        value: props.value,
        readOnly: props.readOnly,
        onChange: (event: { currentTarget: HTMLTextAreaElement }) => props.onChange(event.currentTarget.value),
      }),
  };
});

const fly = storedScript({ id: 's1', name: 'Fly', code: 'print("fly")', gameId: '42', gameName: 'Tower' });
const jump = storedScript({ id: 's2', name: 'Jump', code: 'print("jump")', isAutoExecute: true });

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

describe('ScriptEditorScreen', () => {
  it('fills the form from the script list for ?id=', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [jump, fly] }) }));
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s2' });
    expect(await screen.findByLabelText('Script Name')).toHaveValue('Jump');
    expect(screen.getByText('Edit your script')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveValue('Lets you fly');
    expect(screen.getByLabelText('Execution Type')).toHaveValue('auto');
    expect(screen.getByLabelText('Code')).toHaveValue('print("jump")');
  });

  it('opens the code at ?line= (an error line from the Console)', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [jump, fly] }) }));
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s2&line=7' });
    expect(await screen.findByLabelText('Code')).toHaveAttribute('data-initial-line', '7');
  });

  it('ignores a ?line= that is no line number', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [jump, fly] }) }));
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s2&line=-3' });
    expect(await screen.findByLabelText('Code')).not.toHaveAttribute('data-initial-line');
  });

  it('offers the games of the other scripts in the save modal', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [jump, fly] }) }));
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s2' });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    // Jump has no game of its own: all games first, Tower (from Fly) is a recent game.
    expect(within(dialog).getByRole('radio', { name: 'All games' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'A specific game' }));
    expect(within(dialog).getByRole('option', { name: 'Tower (42)' })).toBeInTheDocument();
  });

  it("says 'Script not found' for an unknown id, with a way back to the list", async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [fly] }) }));
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=gone' });
    expect(await screen.findByRole('heading', { name: 'Script not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Scripts' })).toHaveAttribute('href', '/scripts');
    expect(screen.queryByLabelText('Script Name')).not.toBeInTheDocument();
  });

  it('moves to the new script after creating it, so the next save updates it', async () => {
    const created = storedScript({ id: 'new1', name: 'Dash', description: null, code: 'print("dash")' });
    const calls: string[] = [];
    const respond = jsonFetch({
      'GET /api/scripts': () => ({ body: calls.includes('POST /api/scripts') ? [created, fly] : [fly] }),
      'POST /api/scripts': () => ({ status: 201, body: created }),
      'PUT /api/scripts/new1': (body) => ({ body: { ...created, ...(body as object) } }),
    });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
      return respond(input, init);
    });
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor' });
    expect(screen.getByText('Create a new Lua script')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Script Name'), 'Dash');
    await userEvent.clear(screen.getByLabelText('Code'));
    await userEvent.type(screen.getByLabelText('Code'), 'print("dash")');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    // Ctrl/Cmd+S opens the save dialog, like the Save button.
    await userEvent.click(await screen.findByRole('button', { name: 'Save Script' }));
    expect(await screen.findByText('Edit your script')).toBeInTheDocument();
    // The same editor carries on with what was typed.
    expect(screen.getByLabelText('Script Name')).toHaveValue('Dash');
    expect(screen.getByLabelText('Code')).toHaveValue('print("dash")');
    await userEvent.type(screen.getByLabelText('Code'), ' -- more');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    // Ctrl/Cmd+S opens the save dialog, like the Save button.
    await userEvent.click(await screen.findByRole('button', { name: 'Save Script' }));
    await waitFor(() => expect(calls).toContain('PUT /api/scripts/new1'));
    expect(calls.filter((call) => call === 'POST /api/scripts')).toHaveLength(1);
  });

  it('opens a fresh editor for another script or a new one', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: [jump, fly] }) }));
    renderWithProviders(
      <>
        <Link to="/editor">New Script</Link>
        <Link to="/editor?id=s1">Open Fly</Link>
        <ScriptEditorScreen />
      </>,
      { route: '/editor?id=s2' },
    );
    await userEvent.type(await screen.findByLabelText('Script Name'), ' edited');
    await userEvent.click(screen.getByRole('link', { name: 'Open Fly' }));
    expect(await screen.findByDisplayValue('Fly')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('print("fly")');
    await userEvent.click(screen.getByRole('link', { name: 'New Script' }));
    expect(await screen.findByText('Create a new Lua script')).toBeInTheDocument();
    expect(screen.getByLabelText('Script Name')).toHaveValue('');
    expect(screen.getByLabelText('Code')).toHaveValue('-- Write your Lua code here...\n');
  });
});
