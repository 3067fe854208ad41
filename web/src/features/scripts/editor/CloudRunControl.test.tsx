import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenCloudKey } from '@moonrelay/contract/open-cloud';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { CLOUD_RUN_TEXT, LUAU_WRITE_SCOPE } from '../../../lib/cloud-run.ts';
import { useCan } from '../../../lib/team-access.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { CloudRunButton, CloudRunNote, useCloudReadiness } from './CloudRunControl.tsx';

const savedKey = (overrides: Partial<OpenCloudKey> = {}): OpenCloudKey => ({
  universeId: '4200000001',
  maskedKey: 'rbxo…WXYZ',
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  lastImportAt: null,
  lastImportError: null,
  placeId: '4200000002',
  placeVersion: null,
  scopes: [LUAU_WRITE_SCOPE],
  ...overrides,
});

/** The editor's pair as it uses them: the button in the row of actions, the note under it. */
function Harness({ onRun }: { onRun(timeoutSeconds: number): void }) {
  const readiness = useCloudReadiness();
  const can = useCan('runs.sandbox', 'runs.game');
  return (
    <>
      <CloudRunButton readiness={readiness} can={can} busy={false} loading={false} noteId="note" onRun={onRun} />
      <CloudRunNote readiness={readiness} can={can} noteId="note" />
    </>
  );
}

const button = () => screen.getByTestId('run-in-roblox');

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('Run in Roblox', () => {
  it('names the place it runs on, and runs with the time limit chosen (5 minutes unless told)', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/open-cloud/key': () => ({ body: { key: savedKey() } }) }));
    const onRun = vi.fn();
    renderWithProviders(<Harness onRun={onRun} />);
    await waitFor(() => expect(button()).toHaveAccessibleName('Run in Roblox · place 4200000002'));
    expect(button()).toBeEnabled();
    const limit = screen.getByRole('combobox', { name: CLOUD_RUN_TEXT.timeoutLabel });
    expect(limit).toHaveDisplayValue('5 min');
    await userEvent.click(button());
    expect(onRun).toHaveBeenLastCalledWith(300);
    await userEvent.selectOptions(limit, '1 min');
    // By keyboard too: the button is a tab stop before the time limit.
    button().focus();
    await userEvent.keyboard('{Enter}');
    expect(onRun).toHaveBeenLastCalledWith(60);
    expect(screen.queryByTestId('cloud-run-note')).not.toBeInTheDocument();
  });

  it('names a pinned version with the place', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/open-cloud/key': () => ({ body: { key: savedKey({ placeVersion: '7' }) } }) }),
    );
    renderWithProviders(<Harness onRun={() => {}} />);
    await waitFor(() => expect(button()).toHaveAccessibleName('Run in Roblox · place 4200000002 v7'));
  });

  it('is disabled with its reason and the way to Settings when no place is set', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/open-cloud/key': () => ({ body: { key: savedKey({ placeId: null }) } }) }),
    );
    const onRun = vi.fn();
    renderWithProviders(<Harness onRun={onRun} />);
    const note = await screen.findByTestId('cloud-run-note');
    expect(note).toHaveTextContent(CLOUD_RUN_TEXT.noPlace);
    expect(button()).toBeDisabled();
    expect(button()).toHaveAccessibleName('Run in Roblox');
    expect(button()).toHaveAccessibleDescription(`${CLOUD_RUN_TEXT.noPlace} Open Settings`);
    expect(screen.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings#open-cloud');
    expect(onRun).not.toHaveBeenCalled();
  });

  it('says a key is needed first', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/open-cloud/key': () => ({ body: { key: null } }) }));
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(CLOUD_RUN_TEXT.noKey);
    expect(button()).toBeDisabled();
  });

  it('names the scope a key that may not run code lacks', async () => {
    const banOnly = savedKey({ scopes: ['universe.user-restriction:read', 'universe.user-restriction:write'] });
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/open-cloud/key': () => ({ body: { key: banOnly } }) }));
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(LUAU_WRITE_SCOPE);
    expect(button()).toBeDisabled();
  });

  it('leaves it to the server for a member whose role may not read the key (the place is not named)', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.developer);
    chooseTeam('t1');
    renderWithProviders(<Harness onRun={() => {}} />);
    await waitFor(() => expect(button()).toBeEnabled());
    expect(button()).toHaveAccessibleName('Run in Roblox');
    expect(calls).not.toContain('GET /api/open-cloud/key');
  });

  it('is disabled for a role without runs.game, saying so', async () => {
    teamApi(ROLE_PERMISSIONS.viewer);
    chooseTeam('t1');
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(
      'Run in Roblox: Needs the permission runs.sandbox',
    );
    expect(button()).toBeDisabled();
  });
});
