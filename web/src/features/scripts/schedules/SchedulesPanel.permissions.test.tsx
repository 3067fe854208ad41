import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@moonrelay/contract/schedules';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { SchedulesPanel } from './SchedulesPanel.tsx';

const hourly: Schedule = {
  id: 'sch1',
  scriptId: 's1',
  kind: 'interval',
  cron: null,
  timeZone: null,
  intervalSeconds: 3600,
  target: 'sandbox',
  serverId: null,
  enabled: true,
  nextRuns: ['2026-11-28T07:30:00.000Z'],
  lastRun: null,
  lastError: null,
  skippedCount: 0,
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

const SCHEDULES_PATH = 'GET /api/scripts/s1/schedules';
const routes = { [SCHEDULES_PATH]: () => ({ body: { schedules: [hourly] } }) };

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("SchedulesPanel: what a team member's role allows", () => {
  it('lists the schedules of a viewer with every change disabled, saying it needs schedules.manage', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.viewer, routes);
    chooseTeam('t1');
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    const item = await screen.findByTestId('schedule');
    expect(
      screen.getByText('Add, change, pause and delete schedules: Needs the permission schedules.manage'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add schedule' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add schedule' })).toHaveAttribute(
      'title',
      'Needs the permission schedules.manage',
    );
    expect(within(item).getByRole('button', { name: /^Edit schedule/ })).toBeDisabled();
    expect(within(item).getByRole('button', { name: /^Delete schedule/ })).toBeDisabled();
    expect(within(item).getByRole('checkbox', { name: /Running/ })).toBeDisabled();
    expect(calls.filter((call) => !call.startsWith('GET'))).toEqual([]);
  });

  it('does not ask for the schedules of a member who may not read scripts, and says why', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator, routes);
    chooseTeam('t1');
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    expect(await screen.findByText('See the schedules: Needs the permission scripts.read')).toBeInTheDocument();
    expect(screen.queryByTestId('schedule')).not.toBeInTheDocument();
    expect(screen.queryByText('The schedules could not be loaded.')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls).not.toContain(SCHEDULES_PATH);
  });

  it('lets a member schedule only where they may run code: the sandbox, not the live game', async () => {
    const { calls } = teamApi(['scripts.read', 'schedules.manage', 'runs.sandbox'], {
      ...routes,
      'POST /api/schedules/preview': () => ({ body: { nextRuns: ['2026-11-28T08:00:00.000Z'] } }),
    });
    chooseTeam('t1');
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    await screen.findByTestId('schedule');
    await userEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    const create = await screen.findByRole('button', { name: 'Create schedule' });
    await waitFor(() => expect(create).toBeEnabled());
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Target' }), 'all-servers');
    expect(create).toBeDisabled();
    expect(create).toHaveAttribute('title', 'Needs the permission runs.game');
    expect(screen.getByText('Run on All live game servers: Needs the permission runs.game')).toBeInTheDocument();
    await userEvent.click(create);
    expect(calls.filter((call) => call.startsWith('POST /api/scripts'))).toEqual([]);
  });

  it('leaves everything open on the person’s own account', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.viewer, routes);
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    const item = await screen.findByTestId('schedule');
    expect(screen.getByRole('button', { name: 'Add schedule' })).toBeEnabled();
    expect(within(item).getByRole('button', { name: /^Edit schedule/ })).toBeEnabled();
    expect(within(item).getByRole('button', { name: /^Delete schedule/ })).toBeEnabled();
    expect(within(item).getByRole('checkbox', { name: /Running/ })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
    expect(calls).toContain(SCHEDULES_PATH);
  });
});
