import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationAttempt } from '@moonrelay/contract/notifications';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';

/** The last 100 attempts, newest first: every fifth failed without an answer. */
const attempts: NotificationAttempt[] = Array.from({ length: 100 }, (_, i) => ({
  id: `a${i}`,
  eventId: `ev${i}`,
  event: 'test',
  at: new Date(Date.UTC(2026, 10, 29, 12, 0, 0) - i * 60_000).toISOString(),
  status: i % 5 === 4 ? null : 204,
  error: i % 5 === 4 ? 'timed out' : null,
  latencyMs: 100 + i,
  answer: '',
}));

function serve() {
  const redelivered: string[] = [];
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/notifications/destinations/d1/attempts': () => ({ body: { attempts } }),
      'POST /api/notifications/destinations/d1/events/ev1/redeliver': () => {
        redelivered.push('ev1');
        return { status: 202, body: { eventId: 'ev1' } };
      },
    }),
  );
  return redelivered;
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('a destination’s delivery log', () => {
  it('draws only the rows in view of its last 100 deliveries, and the others as it scrolls', async () => {
    const redelivered = serve();
    renderWithProviders(<DeliveryLog destinationId="d1" />);
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    // The header and the rows of a screenful and a few past it, not a hundred.
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows().length).toBeGreaterThanOrEqual(8);
    expect(rows().length).toBeLessThan(30);
    expect(table).toHaveAttribute('aria-rowcount', '101');
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(within(rows()[4]!).getByText('no answer')).toBeInTheDocument();
    expect(within(rows()[4]!).getByText('timed out')).toBeInTheDocument();

    // A drawn row's Redeliver works as before.
    await userEvent.click(within(rows()[1]!).getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(redelivered).toEqual(['ev1']));

    // Scrolled to the end: the oldest delivery, with its place in the table.
    const region = screen.getByRole('region', { name: 'Delivery log' });
    region.scrollTop = 100_000;
    fireEvent.scroll(region);
    await waitFor(() => expect(rows().at(-1)).toHaveAttribute('aria-rowindex', '101'));
    expect(within(rows().at(-1)!).getByText('199 ms')).toBeInTheDocument();
    expect(within(table).queryByText('100 ms')).toBeNull();
    expect(rows().length).toBeLessThan(30);
  });
});
