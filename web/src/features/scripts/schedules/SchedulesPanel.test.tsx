import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@moonrelay/contract/schedules';
import { SCHEDULE_ERRORS } from '@moonrelay/contract/messages';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../components/test-scripts.ts';
import { SchedulesPanel } from './SchedulesPanel.tsx';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

const nightly: Schedule = {
  id: 'sch1',
  scriptId: 's1',
  kind: 'cron',
  cron: '30 2 * * *',
  timeZone: 'America/New_York',
  intervalSeconds: null,
  target: 'all-servers',
  serverId: null,
  enabled: true,
  nextRuns: ['2026-11-28T07:30:00.000Z'],
  lastRun: { id: 'run1', at: '2026-11-27T07:30:00.000Z', status: 'not_connected' },
  lastError: 'Game not connected',
  skippedCount: 2,
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

describe('SchedulesPanel', () => {
  it("lists a script's schedules with their last run, last error and skips", async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts/s1/schedules': () => ({ body: { schedules: [nightly] } }) }));
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    const item = await screen.findByTestId('schedule');
    expect(within(item).getByText('Cron 30 2 * * * (America/New_York)')).toBeInTheDocument();
    expect(within(item).getByText('All live game servers')).toBeInTheDocument();
    expect(within(item).getByRole('link')).toHaveAttribute('href', '/runs?id=run1');
    expect(within(item).getByText('2 skipped')).toBeInTheDocument();
    expect(within(item).getByTestId('schedule-last-error')).toHaveTextContent('Last error: Game not connected');
    expect(within(item).getByRole('checkbox', { name: /Running/ })).toBeChecked();
  });

  it("shows the server's next five times before saving, or its reason when the timing is wrong", async () => {
    const previews: unknown[] = [];
    const created: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/scripts/s1/schedules': () => ({ body: { schedules: [] } }),
        'POST /api/schedules/preview': (body) => {
          previews.push(body);
          const timing = body as { cron?: string };
          return timing.cron === 'nope'
            ? { status: 400, body: { error: SCHEDULE_ERRORS.cronInvalid } }
            : { body: { nextRuns: ['a', 'b', 'c', 'd', 'e'].map((_, i) => `2026-11-2${i + 1}T10:00:00.000Z`) } };
        },
        'POST /api/scripts/s1/schedules': (body) => {
          created.push(body);
          return { body: { ...nightly, id: 'new' } };
        },
      }),
    );
    renderWithProviders(<SchedulesPanel scriptId="s1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add schedule' }));
    const form = screen.getByRole('form', { name: 'New schedule' });
    expect(await within(form).findAllByRole('listitem')).toHaveLength(5);

    const cron = within(form).getByLabelText('Cron expression');
    await userEvent.clear(cron);
    await userEvent.type(cron, 'nope');
    // The preview asks once typing pauses.
    const reason = await within(form).findByTestId('schedule-preview-error', {}, { timeout: 5_000 });
    expect(reason).toHaveTextContent(SCHEDULE_ERRORS.cronInvalid);
    expect(within(form).getByRole('button', { name: 'Create schedule' })).toBeDisabled();

    await userEvent.clear(cron);
    await userEvent.type(cron, '*/5 * * * *');
    await userEvent.selectOptions(within(form).getByLabelText('Target'), 'dry-run');
    await vi.waitFor(() => expect(within(form).getByRole('button', { name: 'Create schedule' })).toBeEnabled(), {
      timeout: 5_000,
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Create schedule' }));
    await vi.waitFor(() => expect(created).toHaveLength(1), { timeout: 5_000 });
    expect(created[0]).toMatchObject({ kind: 'cron', cron: '*/5 * * * *', target: 'dry-run', serverId: null });
    expect(previews.length).toBeGreaterThan(1);
  });
});
