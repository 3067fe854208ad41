import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ScriptShare } from '@moonrelay/contract/shares';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SHARE_TEXT } from './share-text.ts';
import { SharesTable } from './SharesTable.tsx';

/** A team's 500 links, newest first, one a script. */
const shares: ScriptShare[] = Array.from({ length: 500 }, (_, i) => ({
  id: `sh${i}`,
  scriptId: `s${i}`,
  scriptName: `Script ${i}`,
  createdAt: new Date(Date.UTC(2026, 10, 29, 12) - i * 60_000).toISOString(),
  createdBy: i % 3 ? 'grace' : null,
}));
const stopLabel = (share: ScriptShare) => SHARE_TEXT.stopLabel(share.scriptName, formatDateTime(share.createdAt));

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the share links table', () => {
  it('draws only the rows in view of many links, and the others as it scrolls', async () => {
    // The table's scroll box shows 8 rows of the 500 (jsdom lays nothing out of its own).
    const isScroller = (element: Element) => element.firstElementChild?.tagName === 'TABLE';
    const layout = [
      vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
        return isScroller(this) ? 8 * 52 : 0;
      }),
      vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
        return isScroller(this) ? 501 * 52 : 0;
      }),
    ];
    onTestFinished(() => layout.forEach((spy) => spy.mockRestore()));
    renderWithProviders(<SharesTable shares={shares} showScript stop={{ allowed: true }} emptyText="None" />);
    const rows = () => screen.getAllByTestId('share-row');
    // The 8 rows in view and a few past the edge, not five hundred.
    expect(rows().length).toBeGreaterThanOrEqual(8);
    expect(rows().length).toBeLessThan(30);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '501');
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(within(rows()[0]!).getByText(SHARE_TEXT.deletedAccount)).toHaveAttribute('data-gone');
    // The box scrolls, so the keyboard can reach it and scroll it.
    const scroller = screen.getByRole('table').parentElement!;
    await waitFor(() => expect(scroller).toHaveAttribute('tabindex', '0'));

    // Halfway down: the rows there, with their places in the whole table and their Stop sharing.
    scroller.scrollTop = 250 * 52;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(screen.getByRole('button', { name: stopLabel(shares[250]!) })).toBeEnabled());
    expect(screen.queryByRole('button', { name: stopLabel(shares[0]!) })).toBeNull();
    expect(screen.getByText('Script 250').closest('tr')).toHaveAttribute('aria-rowindex', '252');
    expect(rows().length).toBeLessThan(30);
  });
});
