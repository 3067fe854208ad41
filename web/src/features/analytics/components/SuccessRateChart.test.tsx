import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ScriptAnalytics } from '@moonrelay/contract/analytics';
import { renderWithProviders } from '../../../test/render.tsx';
import { SuccessRateChart } from './SuccessRateChart.tsx';
import { standInResizeObserver } from '../../../test/resize-observer.ts';

// recharts sizes its charts with ResizeObserver, which jsdom lacks.
standInResizeObserver();

const stats = (outcomes: ScriptAnalytics['outcomes'], successRate: number | null): ScriptAnalytics => ({
  totalExecutions: Object.values(outcomes).reduce((sum, count) => sum + count, 0),
  executionsByScript: [],
  successRate,
  averageExecutionTime: null,
  outcomes,
  periodStart: '2026-11-28T01:00:00.000Z',
  periodEnd: '2026-11-29T00:26:49.409Z',
  period: '24h',
  executionsOverTime: [],
});

const legend = () =>
  within(screen.getByRole('list', { name: 'Outcomes' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const middle = () => screen.getByTestId('success-rate-middle').textContent;
/** The shares the legend states, in tenths of a percent (so that they add up exactly). */
const tenths = (items: (string | null)[]) =>
  items.map((text) => Math.round(Number(/\(([\d.]+)%\)/.exec(text ?? '')?.[1]) * 10));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('SuccessRateChart', () => {
  it('says what share of the ring each outcome is: the middle is the succeeded slice, and the legend adds up to 100%', () => {
    // The first hour's three runs: two in the sandbox, one with no game connected.
    renderWithProviders(
      <SuccessRateChart stats={stats({ succeeded: 2, failed: 0, pending: 0, notConnected: 1 }, 66.7)} />,
    );
    expect(legend()).toEqual(['Succeeded 2 (66.7%)', 'No game connected 1 (33.3%)']);
    expect(middle()).toBe('66.7%succeeded');
    expect(sum(tenths(legend()))).toBe(1000);
  });

  it('keeps the shares adding up to exactly 100% when rounding would not (thirds, sevenths)', () => {
    const { unmount } = renderWithProviders(
      <SuccessRateChart stats={stats({ succeeded: 1, failed: 1, pending: 0, notConnected: 1 }, 33.3)} />,
    );
    expect(sum(tenths(legend()))).toBe(1000);
    expect(middle()).toBe(`${legend()[0]!.match(/\(([\d.]+)%\)/)![1]}%succeeded`);
    unmount();
    renderWithProviders(
      <SuccessRateChart stats={stats({ succeeded: 1, failed: 2, pending: 2, notConnected: 2 }, 14.3)} />,
    );
    expect(legend()).toHaveLength(4);
    expect(sum(tenths(legend()))).toBe(1000);
    expect(middle()).toBe('14.3%succeeded');
  });

  it('counts runs still waiting for the game in the ring, so 100% succeeded means every run did', () => {
    renderWithProviders(
      <SuccessRateChart stats={stats({ succeeded: 3, failed: 0, pending: 1, notConnected: 0 }, 75)} />,
    );
    expect(legend()).toEqual(['Succeeded 3 (75%)', 'Waiting for the game 1 (25%)']);
    expect(middle()).toBe('75%succeeded');
  });

  it('says 100% only when every run succeeded', () => {
    renderWithProviders(
      <SuccessRateChart stats={stats({ succeeded: 4, failed: 0, pending: 0, notConnected: 0 }, 100)} />,
    );
    expect(legend()).toEqual(['Succeeded 4 (100%)']);
    expect(middle()).toBe('100%succeeded');
  });
});
