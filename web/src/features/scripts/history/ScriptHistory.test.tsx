import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCRIPT_VERSIONS_KEPT, type ScriptVersion } from '@moonrelay/contract/script-versions';
import { useSession } from '../../../lib/session.ts';
import { testScript } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptHistory } from './ScriptHistory.tsx';

const version = (number: number, code: string, overrides: Partial<ScriptVersion> = {}): ScriptVersion => ({
  scriptId: 's1',
  number,
  name: 'Fly',
  description: null,
  code,
  isAutoExecute: false,
  isPublic: false,
  gameId: null,
  gameName: null,
  gameImageUrl: null,
  autoExecuteGames: null,
  savedBy: 'Ada',
  savedVia: 'session',
  savedByKey: null,
  restoredFrom: null,
  codeBytes: code.length,
  lines: code.split('\n').length,
  current: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const v1 = version(1, 'local speed = 16\nprint(speed)');
const v2 = version(2, 'local speed = 50\nprint(speed)', { savedVia: 'key', savedByKey: 'CI deploy', name: 'Fly fast' });
const v3 = version(3, 'local speed = 50\nprint(speed)\nprint("done")', { current: true, name: 'Fly fast' });
const summary = ({ code: _code, scriptId: _id, description: _d, ...rest }: ScriptVersion) => rest;

beforeEach(() => useSession.setState({ token: 'mrs_test' }));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

function serve(restore = vi.fn(() => ({ body: testScript({ id: 's1', version: 4, code: v1.code }) }))) {
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/scripts/s1/versions': () => ({
        body: { scriptId: 's1', current: 3, items: [v3, v2, v1].map(summary) },
      }),
      'GET /api/scripts/s1/versions/1': () => ({ body: v1 }),
      'GET /api/scripts/s1/versions/2': () => ({ body: v2 }),
      'GET /api/scripts/s1/versions/3': () => ({ body: v3 }),
      'POST /api/scripts/s1/versions/1/restore': restore,
    }),
  );
  return restore;
}

describe('ScriptHistory', () => {
  it('opens on demand, lists the versions and shows what the last save changed side by side', async () => {
    const fetchSpy = serve();
    renderWithProviders(
      <ScriptHistory script={testScript({ id: 's1', version: 3 })} dirty={false} onRestored={vi.fn()} />,
    );
    // Closed: nothing fetched yet.
    expect(screen.queryByRole('table', { name: 'Versions' })).not.toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: /History/ }));
    const rows = within(await screen.findByRole('table', { name: 'Versions' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Version'),
      expect.stringMatching(/Version 3\s*Current/),
      expect.stringContaining('Ada, with the key “CI deploy”'),
      expect.stringContaining('Version 1'),
    ]);
    const diff = await screen.findByTestId('version-diff');
    expect(diff).toHaveAccessibleName('Changes from Version 2 to Version 3');
    expect(within(diff).getByLabelText('added: print("done")')).toBeInTheDocument();
    expect(screen.getByTestId('diff-counts')).toHaveTextContent('+1 −0');
  });

  it('compares any two versions, naming what changed besides the code', async () => {
    serve();
    renderWithProviders(
      <ScriptHistory script={testScript({ id: 's1', version: 3 })} dirty={false} onRestored={vi.fn()} />,
    );
    await userEvent.click(screen.getByRole('button', { name: /History/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Compare version 1 with the current version' }));
    const diff = await screen.findByTestId('version-diff');
    await waitFor(() => expect(diff).toHaveAccessibleName('Changes from Version 1 to Version 3'));
    expect(within(diff).getByLabelText('removed: local speed = 16')).toBeInTheDocument();
    expect(within(diff).getByLabelText('added: local speed = 50')).toBeInTheDocument();
    expect(screen.getByTestId('field-changes')).toHaveTextContent('Name: “Fly” → “Fly fast”');
    await userEvent.selectOptions(screen.getByLabelText('with'), '2');
    await waitFor(() => expect(screen.getByTestId('diff-counts')).toHaveTextContent('+1 −1'));
  });

  it('restores after confirmation, warning that unsaved edits go, and hands the editor the restored script', async () => {
    const restore = serve();
    const onRestored = vi.fn();
    renderWithProviders(<ScriptHistory script={testScript({ id: 's1', version: 3 })} dirty onRestored={onRestored} />);
    await userEvent.click(screen.getByRole('button', { name: /History/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Restore version 1?');
    expect(dialog).toHaveTextContent('Your unsaved changes in the editor will be replaced.');
    expect(restore).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(onRestored).toHaveBeenCalledWith(expect.objectContaining({ version: 4, code: v1.code })),
    );
    expect(restore).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Version restored')).toBeInTheDocument();
  });

  it(`draws only the rows in view of the ${SCRIPT_VERSIONS_KEPT} versions kept, and the others as it scrolls`, async () => {
    const newest = 250;
    const kept = Array.from({ length: SCRIPT_VERSIONS_KEPT }, (_, i) =>
      summary(version(newest - i, `print(${newest - i})`, { current: i === 0 })),
    );
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts/s1/versions': () => ({ body: { scriptId: 's1', current: newest, items: kept } }),
        'GET /api/scripts/s1/versions/249': () => ({ body: version(249, 'print(249)') }),
        'GET /api/scripts/s1/versions/250': () => ({ body: version(250, 'print(250)', { current: true }) }),
      }),
    );
    renderWithProviders(
      <ScriptHistory script={testScript({ id: 's1', version: newest })} dirty={false} onRestored={vi.fn()} />,
    );
    await userEvent.click(screen.getByRole('button', { name: /History/ }));
    const table = await screen.findByRole('table', { name: 'Versions' });
    // The header and the rows of a screenful and a few past it, not a hundred.
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows().length).toBeGreaterThanOrEqual(8);
    expect(rows().length).toBeLessThan(30);
    expect(table).toHaveAttribute('aria-rowcount', String(SCRIPT_VERSIONS_KEPT + 1));
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(screen.queryByRole('button', { name: `Restore version ${newest - SCRIPT_VERSIONS_KEPT + 1}` })).toBeNull();

    // Scrolled to the end: the oldest version kept, with its place in the table and its buttons.
    const region = screen.getByRole('region', { name: 'Versions' });
    region.scrollTop = 100_000;
    fireEvent.scroll(region);
    const oldest = await screen.findByTestId(`version-${newest - SCRIPT_VERSIONS_KEPT + 1}`);
    expect(oldest).toHaveAttribute('aria-rowindex', String(SCRIPT_VERSIONS_KEPT + 1));
    expect(within(oldest).getByRole('button', { name: /^Restore version/ })).toBeEnabled();
    expect(screen.queryByTestId(`version-${newest}`)).toBeNull();
    expect(rows().length).toBeLessThan(30);
  });
});
