import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Rect,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, type RefObject } from 'react';
import type { ConsoleEntry } from './console-feed.ts';

/**
 * The console's entries as a virtual list: only the rows on screen (and a few either side) are in
 * the page, whatever the view keeps. Rows wrap and stacks open, so each row is measured as it is
 * drawn. Above the first row, the log's head (older lines to load, the limit's note) takes a fixed
 * height: a reader at the top is then reading a line, which stays in place when older ones come
 * in above it, and the rows never move because the head changed.
 */

/** One unwrapped line: 12 px text at line height 1.6 and 2 px of padding above and below. */
export const CONSOLE_ROW_ESTIMATE_PX = 24;

/** Within this many pixels of the bottom the log counts as at the live end. */
export const CONSOLE_END_SLACK_PX = 16;

/** Rows drawn beyond each edge of the screen, so a short scroll shows rows already there. */
const OVERSCAN_ROWS = 10;

/** Room under the last row, as the log had before it was virtual. */
const BOTTOM_PADDING_PX = 4;

/** The head's height when it says anything: room for a button and a message, or a note in two lines. */
export const CONSOLE_HEAD_PX = 44;

/**
 * The size a log is taken to have before it is laid out (hidden, or in a document without layout):
 * a screenful of rows is drawn rather than one, and the first real size replaces it.
 */
const UNLAID_RECT: Rect = { width: 800, height: 600 };

const observeLaidOutRect: typeof observeElementRect<HTMLDivElement> = (instance, report) =>
  observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : UNLAID_RECT));

/** A row measured at 0 px is not laid out yet (no row is empty): its estimate stands until it is. */
const measureLaidOut: typeof measureElement<HTMLDivElement> = (element, entry, instance) =>
  measureElement(element, entry, instance) || CONSOLE_ROW_ESTIMATE_PX;

const estimateSize = () => CONSOLE_ROW_ESTIMATE_PX;

export type ConsoleVirtualizer = Virtualizer<HTMLDivElement, HTMLDivElement>;

export function useConsoleVirtualizer(
  log: RefObject<HTMLDivElement | null>,
  entries: readonly ConsoleEntry[],
  { shown, headPx }: { shown: boolean; headPx: number },
): ConsoleVirtualizer {
  const getItemKey = useCallback((index: number) => entries[index]!.key, [entries]);
  return useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: shown ? entries.length : 0,
    getScrollElement: () => log.current,
    getItemKey,
    estimateSize,
    measureElement: measureLaidOut,
    observeElementRect: observeLaidOutRect,
    initialRect: UNLAID_RECT,
    overscan: OVERSCAN_ROWS,
    paddingStart: headPx,
    paddingEnd: BOTTOM_PADDING_PX,
    // Rows added above or taken away above (older lines, the limit letting the oldest go) keep the
    // row being read where it is on screen.
    anchorTo: 'end',
    scrollEndThreshold: CONSOLE_END_SLACK_PX,
  });
}
