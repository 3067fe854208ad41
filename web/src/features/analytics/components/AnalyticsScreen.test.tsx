import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScriptAnalytics, UsageAnalytics } from '@moonrelay/contract/analytics';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { AnalyticsScreen } from './AnalyticsScreen.tsx';
import { standInResizeObserver } from '../../../test/resize-observer.ts';

// recharts sizes its charts with ResizeObserver, which jsdom lacks.
standInResizeObserver();

const hours = <T,>(count: number, fill: (index: number) => T) =>
  Array.from({ length: count }, (_, i) => ({
    start: new Date(Date.UTC(2026, 10, 21, 1 + i)).toISOString(),
    ...fill(i),
  }));

const USAGE: UsageAnalytics = {
  totalRequests: 42,
  requestsByEndpoint: { 'POST /api/game/ping': 30, 'GET /api/scripts': 8, 'PUT /api/scripts/:id': 4 },
  averageResponseTime: 3.4,
  totalErrors: 1,
  periodStart: '2026-11-21T01:00:00.000Z',
  periodEnd: '2026-11-22T00:26:49.409Z',
  period: '24h',
  requestsOverTime: hours(24, (i) => ({ requests: i === 23 ? 42 : 0, errors: i === 23 ? 1 : 0 })),
};

const SCRIPTS: ScriptAnalytics = {
  totalExecutions: 14,
  executionsByScript: [
    { scriptId: 's1', name: 'Hello', executions: 11, succeeded: 8, failed: 1 },
    { scriptId: null, name: 'Custom code', executions: 3, succeeded: 3, failed: 0 },
  ],
  successRate: 78.6,
  averageExecutionTime: 5.2,
  outcomes: { succeeded: 11, failed: 1, pending: 0, notConnected: 2 },
  periodStart: '2026-11-21T01:00:00.000Z',
  periodEnd: '2026-11-22T00:26:49.409Z',
  period: '24h',
  executionsOverTime: hours(24, (i) => ({
    executions: i === 23 ? 14 : 0,
    succeeded: i === 23 ? 11 : 0,
    failed: i === 23 ? 1 : 0,
    notConnected: i === 23 ? 2 : 0,
  })),
};

const EMPTY_SCRIPTS: ScriptAnalytics = {
  ...SCRIPTS,
  totalExecutions: 0,
  executionsByScript: [],
  successRate: null,
  averageExecutionTime: null,
  outcomes: { succeeded: 0, failed: 0, pending: 0, notConnected: 0 },
};

let requested: string[];
function serve(usage: UsageAnalytics, scripts: ScriptAnalytics) {
  requested = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    requested.push(url.pathname + url.search);
    const period = url.searchParams.get('period');
    const body = url.pathname.endsWith('/usage') ? { ...usage, period } : { ...scripts, period };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

const region = (name: string) => screen.getByRole('region', { name });
const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).closest('dl')!;

beforeEach(() => {
  signInAs();
  serve(USAGE, SCRIPTS);
});
afterEach(() => vi.unstubAllGlobals());

describe('AnalyticsScreen', () => {
  it('shows the headline numbers and the four charts for the last 24 hours', async () => {
    renderWithProviders(<AnalyticsScreen />, { route: '/analytics' });
    await waitFor(() => expect(stat('Total Requests')).toHaveTextContent('42'));
    expect(stat('Average Response Time')).toHaveTextContent('3.4 ms');
    expect(stat('Total Executions')).toHaveTextContent('14');
    expect(stat('Success Rate')).toHaveTextContent('78.6%');
    expect(stat('Average Execution Time')).toHaveTextContent('5.2 ms');
    expect(requested.sort()).toEqual(['/api/analytics/scripts?period=24h', '/api/analytics/usage?period=24h']);

    // The charts load in a chunk of their own, after the numbers.
    expect(await within(region('Executions over time')).findByTestId('executions-chart')).toBeInTheDocument();
    expect(await within(region('Success rate')).findByTestId('success-rate-chart')).toBeInTheDocument();
    expect(within(region('Success rate')).getByRole('list', { name: 'Outcomes' })).toHaveTextContent(
      'Succeeded 11 (78.6%)Failed 1 (7.1%)No game connected 2 (14.3%)',
    );
    // The ring's middle is the Success Rate card's number.
    expect(within(region('Success rate')).getByTestId('success-rate-middle')).toHaveTextContent('78.6%succeeded');
    const busiest = await within(region('Busiest scripts')).findByTestId('busiest-scripts');
    expect(busiest).toHaveTextContent('Hello');
    expect(busiest).toHaveTextContent('Custom code');
    const byEndpoint = await within(region('Requests by endpoint')).findByTestId('requests-by-endpoint');
    expect(byEndpoint).toHaveTextContent('POST /api/game/ping');
    expect(byEndpoint.textContent!.indexOf('POST /api/game/ping')).toBeLessThan(
      byEndpoint.textContent!.indexOf('GET /api/scripts'),
    );
    expect(await within(region('Request volume')).findByTestId('requests-chart')).toBeInTheDocument();
  });

  it('asks for another period when one is picked', async () => {
    renderWithProviders(<AnalyticsScreen />, { route: '/analytics' });
    await waitFor(() => expect(stat('Total Requests')).toHaveTextContent('42'));
    await userEvent.click(screen.getByText('Last 7 days'));
    await waitFor(() => expect(requested).toContain('/api/analytics/usage?period=7d'));
    expect(requested).toContain('/api/analytics/scripts?period=7d');
  });

  it('says when there is nothing to chart yet', async () => {
    serve({ ...USAGE, totalRequests: 0, requestsByEndpoint: {}, totalErrors: 0 }, EMPTY_SCRIPTS);
    renderWithProviders(<AnalyticsScreen />, { route: '/analytics' });
    await waitFor(() => expect(stat('Total Executions')).toHaveTextContent('0'));
    expect(stat('Success Rate')).toHaveTextContent('—');
    expect(within(region('Executions over time')).getByText('No script runs in this period.')).toBeInTheDocument();
    expect(within(region('Busiest scripts')).getByText('No script runs in this period.')).toBeInTheDocument();
    expect(within(region('Requests by endpoint')).getByText('No API requests in this period.')).toBeInTheDocument();
  });
});
