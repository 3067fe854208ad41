import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
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

/** The person is a viewer of Studio (t1) and a developer of Arcade (t2); every other call is recorded. */
function server() {
  const calls: string[] = [];
  const respond = jsonFetch({
    'POST /api/lua/check': () => ({ body: { ok: true, diagnostics: [] } }),
    'GET /api/teams': () => ({
      body: [
        personalTeam(),
        testTeam({ id: 't1', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] }),
        testTeam({ id: 't2', name: 'Arcade', role: 'developer', permissions: [...ROLE_PERMISSIONS.developer] }),
      ],
    }),
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    calls.push(key);
    return respond(input, init);
  });
  return calls;
}

const renderEditor = () =>
  renderWithProviders(<ScriptEditor script={storedScript()} recentGames={[]} onCreated={() => {}} />);

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe("ScriptEditor: what a team member's role allows", () => {
  it('disables saving and running for a viewer, saying which permission each needs', async () => {
    const calls = server();
    chooseTeam('t1');
    renderEditor();
    expect(await screen.findByText('Save: Needs the permission scripts.write')).toBeInTheDocument();
    expect(screen.getByText('Run in Sandbox and Dry run: Needs the permission runs.sandbox')).toBeInTheDocument();
    expect(screen.getByText('Execute in the game: Needs the permission runs.sandbox')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('title', 'Needs the permission scripts.write');
    expect(screen.getByRole('button', { name: /Run in Sandbox/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Dry run/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Execute/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Save & Execute/ })).toBeDisabled();
    // Sharing the saved script by a link changes nothing of it, but the server asks the same permission.
    expect(screen.getByText('Share: Needs the permission scripts.write')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeDisabled();
    // Copying it into another team asks scripts.write there, not here: the dialog lists where.
    expect(screen.getByRole('button', { name: 'Copy to team' })).toBeEnabled();

    // The shortcut says so too, and sends nothing.
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    expect(await screen.findByText('Needs the permission scripts.write')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('PUT') || call.includes('execute'))).toEqual([]);
  });

  it('lets a developer save and run', async () => {
    server();
    chooseTeam('t2');
    renderEditor();
    await screen.findByRole('button', { name: 'Save' });
    // Enabled once the list of teams says what the role allows.
    await waitFor(() => expect(screen.getByRole('button', { name: /Run in Sandbox/ })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Share' })).toBeEnabled();
    expect(screen.queryByText(/Needs the permission/)).not.toBeInTheDocument();
  });
});
