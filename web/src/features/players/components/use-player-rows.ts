import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, type RefObject } from 'react';
import type { OnlinePlayer } from '@moonrelay/contract/players';

/** Each row's height in pixels: fixed, so the list knows where any row is without drawing it. */
export const PLAYER_ROW_HEIGHT = 56;
/** Rows drawn above and below the visible ones, so Tab and the arrows always have a row to reach. */
const OVERSCAN = 8;
/** Assumed until the list has a height of its own: a hidden tab, or tests without layout. */
const SCREENFUL = { width: 0, height: PLAYER_ROW_HEIGHT * 20 };

export const playerKey = (player: OnlinePlayer) => `${player.serverId}:${player.userId}`;

// A zero height (not laid out yet, or hidden) would draw no row at all, leaving nothing to Tab to.
const observeRectOrScreenful: typeof observeElementRect = (instance, report) =>
  observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : SCREENFUL));

/**
 * Which of the loaded players the scrolling element shows now: a long list draws only those (and a
 * few around them), so ten thousand rows cost the page what forty do. `headerHeight` is the sticky
 * table header above the rows, which both pushes them down and covers the top of the view.
 *
 * Scrolled away from the top, the player at the top of the view stays there when live changes move
 * rows (newcomers are listed first): a reader deep in the list is not pushed along by every join.
 * At the top, newcomers come into view.
 */
export function usePlayerRows(
  scroller: RefObject<HTMLElement | null>,
  players: OnlinePlayer[],
  headerHeight: number,
): Virtualizer<HTMLElement, HTMLTableRowElement> {
  const previous = useRef<Virtualizer<HTMLElement, HTMLTableRowElement> | null>(null);
  // A new function only when the players do: the virtualizer lays its rows out again when it changes.
  const getItemKey = useCallback((index: number) => playerKey(players[index]!), [players]);
  const rows = useVirtualizer<HTMLElement, HTMLTableRowElement>({
    count: players.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => PLAYER_ROW_HEIGHT,
    getItemKey,
    overscan: OVERSCAN,
    initialRect: SCREENFUL,
    observeElementRect: observeRectOrScreenful,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    anchorTo: (previous.current?.scrollOffset ?? 0) > 0 ? 'end' : 'start',
  });
  previous.current = rows;
  return rows;
}
