import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsolePage } from '@moonrelay/contract/console';
import { renderWithProviders } from '../../test/render.tsx';
import type { ConsoleFilter } from './console-feed.ts';
import type { ConsoleLiveBatch, ConsoleSource } from './console-source.ts';
import { ConsoleView } from './ConsoleView.tsx';
import { consoleLines, pageOf } from './test-console.ts';
import { manualFrames } from './test-frames.ts';
import { layOutLog } from './test-layout.ts';
import { CONSOLE_HEAD_PX } from './useConsoleVirtualizer.ts';

const VIEWPORT = 240;
const ROW = 24;

let frames: ReturnType<typeof manualFrames>;
let layout: ReturnType<typeof layOutLog>;
beforeEach(() => {
  frames = manualFrames();
  layout = layOutLog({ viewport: VIEWPORT, row: ROW });
});
afterEach(() => {
  layout.restore();
  vi.unstubAllGlobals();
});

/** A console whose pages come from `page` and whose live lines the test sends. */
function renderConsole(page: (cursor: string | null) => ConsolePage, onCommit: () => void = () => {}) {
  let listener: ((batch: ConsoleLiveBatch) => void) | null = null;
  const fetchPage = vi.fn(async (_filter: ConsoleFilter, cursor: string | null) => page(cursor));
  const source: ConsoleSource = {
    queryKey: ['test-console'],
    fetchPage,
    subscribe: (next) => {
      listener = next;
      return () => {
        listener = null;
      };
    },
    live: true,
    pollMs: 60_000,
  };
  renderWithProviders(
    <Profiler id="console" onRender={onCommit}>
      <ConsoleView source={source} servers={[]} height="15rem" />
    </Profiler>,
  );
  /** One socket event, in its own task as the socket brings it. */
  const send = (batch: ConsoleLiveBatch) => act(() => listener?.(batch));
  return { send, fetchPage };
}

const log = () => screen.getByRole('log', { name: 'Console lines' });
const texts = () => screen.queryAllByTestId('console-line-text').map((element) => element.textContent);
/** A frame, and the ones it asks for (the list's scroll reports and follow-ups), until none is left. */
const settle = () => {
  for (let i = 0; i < 20 && frames.pending() > 0; i += 1) act(() => frames.runFrame());
};
/** The first page shown, and the log scrolled to its end. */
async function loaded(lines: number) {
  await waitFor(() => expect(screen.getByTestId('console-count')).toHaveTextContent(`${lines} lines`));
  settle();
}
const atBottom = () => layout.maxTop(log()) - log().scrollTop;

describe('the console log', () => {
  it('draws only the rows on screen, however many lines came, and follows the newest', async () => {
    const { send } = renderConsole(() => pageOf(consoleLines(1, 200)));
    await loaded(200);
    for (let from = 201; from <= 5_000; from += 200) send({ lines: consoleLines(from, from + 199), drops: [] });
    settle();

    expect(screen.getByTestId('console-count')).toHaveTextContent('2,000 lines');
    const drawn = log().querySelectorAll('[data-index]').length;
    // The screen's 10 rows and a few either side, not the 2,000 kept.
    expect(drawn).toBeGreaterThanOrEqual(VIEWPORT / ROW);
    expect(drawn).toBeLessThan(40);
    expect(texts()).toContain('line 5000');
    expect(texts()).not.toContain('line 3001');
    expect(atBottom()).toBe(0);
    expect(layout.onScreen(log()).at(-1)?.text).toBe('line 5000');
  });

  it('takes in a burst of socket events once, at the next frame', async () => {
    let commits = 0;
    const { send } = renderConsole(
      () => pageOf(consoleLines(1, 2)),
      () => (commits += 1),
    );
    await loaded(2);
    expect(texts()).toEqual(['line 1', 'line 2']);

    commits = 0;
    for (let id = 3; id <= 202; id += 1) send({ lines: consoleLines(id, id), drops: [] });
    // 200 events, each in its own task: nothing rendered yet, one frame asked for.
    expect(commits).toBe(0);
    expect(screen.getByTestId('console-count')).toHaveTextContent('2 lines');
    expect(frames.pending()).toBe(1);
    act(() => frames.runFrame());
    expect(screen.getByTestId('console-count')).toHaveTextContent('202 lines');
    expect(commits).toBe(1);
  });

  it('keeps the lines being read in place while new ones come, and offers a jump to the latest', async () => {
    const { send } = renderConsole(() => pageOf(consoleLines(1, 100)));
    await loaded(100);
    expect(atBottom()).toBe(0);

    // The reader scrolls up, a little at first (still following), then away from the live end.
    log().scrollTop -= 10;
    fireEvent.scroll(log());
    expect(screen.queryByTestId('console-jump')).not.toBeInTheDocument();
    log().scrollTop = 1_000;
    fireEvent.scroll(log());
    settle();
    const reading = layout.onScreen(log());
    expect(reading.map((line) => line.text)).toContain('line 45');

    send({ lines: consoleLines(101, 150), drops: [] });
    settle();
    expect(log().scrollTop).toBe(1_000);
    expect(layout.onScreen(log())).toEqual(reading);
    const jump = screen.getByRole('button', { name: '50 new lines: jump to latest' });

    // At the limit, the oldest lines go above what is read: it stays where it is all the same.
    send({ lines: consoleLines(151, 2_030), drops: [] });
    settle();
    expect(screen.getByTestId('console-count')).toHaveTextContent('2,000 lines');
    // 30 lines fewer above it, and the head that now says so.
    expect(log().scrollTop).toBe(1_000 - 30 * ROW + CONSOLE_HEAD_PX);
    expect(screen.getByText(/keeps the latest 2,000 lines/)).toBeInTheDocument();
    expect(layout.onScreen(log())).toEqual(reading);
    expect(jump).toHaveAccessibleName('1,930 new lines: jump to latest');

    await userEvent.click(jump);
    settle();
    expect(atBottom()).toBe(0);
    expect(layout.onScreen(log()).at(-1)?.text).toBe('line 2030');
    expect(screen.queryByTestId('console-jump')).not.toBeInTheDocument();
    // Following again: the next lines scroll into view.
    send({ lines: consoleLines(2_031, 2_032), drops: [] });
    settle();
    expect(layout.onScreen(log()).at(-1)?.text).toBe('line 2032');
  });

  it('loads older lines when the reader scrolls to the top, keeping the line they read where it was', async () => {
    const { fetchPage } = renderConsole((cursor) =>
      cursor === 'older' ? pageOf(consoleLines(1, 100)) : pageOf(consoleLines(101, 200), 'older'),
    );
    await loaded(100);

    log().scrollTop = 20;
    fireEvent.scroll(log());
    const reading = layout.onScreen(log());
    // Under the head, which says older lines can be loaded.
    expect(reading[0]).toEqual({ text: 'line 101', fromTop: CONSOLE_HEAD_PX - 20 });
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith(expect.anything(), 'older'));
    await waitFor(() => expect(screen.getByTestId('console-count')).toHaveTextContent('200 lines'));
    settle();

    // The hundred older lines are above, and there is no older page, so no head.
    // The line read stays where it was; the newest of the older ones shows where the head was.
    expect(log().scrollTop).toBe(20 + 100 * ROW - CONSOLE_HEAD_PX);
    expect(layout.onScreen(log())).toEqual([{ text: 'line 100', fromTop: 0 }, ...reading]);
    expect(screen.queryByRole('button', { name: 'Load older lines' })).not.toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });
});
