import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOUD_RUN_ERRORS, type CloudPlaceStatus } from '@moonrelay/contract/cloud-runs';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { CLOUD_RUN_TEXT, LUAU_WRITE_SCOPE } from '../../../lib/cloud-run.ts';
import { useCan } from '../../../lib/team-access.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { CloudRunButton, CloudRunNote, useCloudReadiness } from './CloudRunControl.tsx';

const PLACE = 'GET /api/open-cloud/place';

/** GET /api/open-cloud/place's answer: ready on place 4200000002 unless told otherwise. */
const placeStatus = (overrides: Partial<CloudPlaceStatus> = {}): CloudPlaceStatus => ({
  universeId: '4200000001',
  placeId: '4200000002',
  placeVersion: null,
  ready: true,
  reason: null,
  ...overrides,
});

const blocked = (reason: string, overrides: Partial<CloudPlaceStatus> = {}) =>
  placeStatus({ ready: false, reason, ...overrides });

/** The editor's pair as it uses them: the button in the row of actions, the note under it. */
function Harness({ onRun }: { onRun(timeoutSeconds: number): void }) {
  const readiness = useCloudReadiness();
  const can = useCan('runs.sandbox', 'runs.game');
  const manage = useCan('opencloud.manage');
  return (
    <>
      <CloudRunButton readiness={readiness} can={can} busy={false} loading={false} noteId="note" onRun={onRun} />
      <CloudRunNote readiness={readiness} can={can} manage={manage.allowed} noteId="note" />
    </>
  );
}

const button = () => screen.getByTestId('run-in-roblox');

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('Run in Roblox', () => {
  it('names the place it runs on, and runs with the time limit chosen (5 minutes unless told)', async () => {
    vi.stubGlobal('fetch', jsonFetch({ [PLACE]: () => ({ body: placeStatus() }) }));
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
    vi.stubGlobal('fetch', jsonFetch({ [PLACE]: () => ({ body: placeStatus({ placeVersion: '7' }) }) }));
    renderWithProviders(<Harness onRun={() => {}} />);
    await waitFor(() => expect(button()).toHaveAccessibleName('Run in Roblox · place 4200000002 v7'));
  });

  it("is disabled with the server's reason and the way to Settings when no place is set", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ [PLACE]: () => ({ body: blocked(CLOUD_RUN_ERRORS.noPlace, { placeId: null }) }) }),
    );
    const onRun = vi.fn();
    renderWithProviders(<Harness onRun={onRun} />);
    const note = await screen.findByTestId('cloud-run-note');
    expect(note).toHaveTextContent(CLOUD_RUN_ERRORS.noPlace);
    expect(button()).toBeDisabled();
    expect(button()).toHaveAccessibleName('Run in Roblox');
    expect(button()).toHaveAccessibleDescription(`${CLOUD_RUN_ERRORS.noPlace} Open Settings`);
    expect(screen.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings#open-cloud');
    expect(onRun).not.toHaveBeenCalled();
  });

  it('says a key is needed first', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ [PLACE]: () => ({ body: blocked(CLOUD_RUN_ERRORS.noKey, { universeId: null, placeId: null }) }) }),
    );
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(CLOUD_RUN_ERRORS.noKey);
    expect(button()).toBeDisabled();
  });

  it('names the scope a key that may not run code lacks', async () => {
    const reason = CLOUD_RUN_ERRORS.missingScope(LUAU_WRITE_SCOPE);
    vi.stubGlobal('fetch', jsonFetch({ [PLACE]: () => ({ body: blocked(reason) }) }));
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(LUAU_WRITE_SCOPE);
    expect(button()).toBeDisabled();
    // The place is set, but no run can start: it is not offered by name.
    expect(button()).toHaveAccessibleName('Run in Roblox');
  });

  it('leaves it to the server while the place cannot be read', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    renderWithProviders(<Harness onRun={() => {}} />);
    await waitFor(() => expect(button()).toBeEnabled());
    expect(button()).toHaveAccessibleName('Run in Roblox');
    expect(screen.queryByTestId('cloud-run-note')).not.toBeInTheDocument();
  });

  it('names the place for a developer, who may run in Roblox but not read the Open Cloud key', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.developer, { [PLACE]: () => ({ body: placeStatus() }) });
    chooseTeam('t1');
    renderWithProviders(<Harness onRun={() => {}} />);
    await waitFor(() => expect(button()).toHaveAccessibleName('Run in Roblox · place 4200000002'));
    expect(button()).toBeEnabled();
    expect(calls).toContain(PLACE);
    expect(calls).not.toContain('GET /api/open-cloud/key');
  });

  it('tells a developer what is missing without the way to Settings, which their role may not change', async () => {
    teamApi(ROLE_PERMISSIONS.developer, { [PLACE]: () => ({ body: blocked(CLOUD_RUN_ERRORS.noPlace) }) });
    chooseTeam('t1');
    renderWithProviders(<Harness onRun={() => {}} />);
    // Until the role is known the note names the permission; then what is missing.
    await waitFor(() =>
      expect(screen.getByTestId('cloud-run-note')).toHaveTextContent(
        `${CLOUD_RUN_ERRORS.noPlace} ${CLOUD_RUN_TEXT.askManager}`,
      ),
    );
    expect(button()).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Open Settings' })).not.toBeInTheDocument();
  });

  it('is disabled for a role without runs.game, saying so, and does not ask where it would run', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.viewer);
    chooseTeam('t1');
    renderWithProviders(<Harness onRun={() => {}} />);
    expect(await screen.findByTestId('cloud-run-note')).toHaveTextContent(
      'Run in Roblox: Needs the permission runs.sandbox',
    );
    expect(button()).toBeDisabled();
    expect(calls).not.toContain(PLACE);
  });
});
