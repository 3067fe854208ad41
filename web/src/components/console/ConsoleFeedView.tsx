import { Box, Button, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { Check, Copy, Play } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useCopyToClipboard } from '../../lib/clipboard.ts';
import { countText, entriesAsText } from './console-format.ts';
import { ALL_LEVELS, type ConsoleFilter } from './console-feed.ts';
import type { ConsoleSource } from './console-source.ts';
import { CONSOLE_LOG_CSS } from './console-styles.ts';
import { CONSOLE_TEXT } from './console-text.ts';
import { ConsoleEntryRow, type LineLinks } from './ConsoleLineRow.tsx';
import { useConsoleFeed } from './useConsoleFeed.ts';

/**
 * At most this many rows are in the page while the view follows the live end; scrolled back, the
 * rows in view stay put while new ones come (up to the kept lines), and "Show earlier lines" adds
 * more. Together with the memoized rows this keeps a fast stream smooth.
 */
export const CONSOLE_RENDERED_ROWS = 500;

/** Within this many pixels of the bottom the view counts as following the live end. */
const FOLLOW_SLACK_PX = 16;

interface Props {
  source: ConsoleSource;
  filter: ConsoleFilter;
  paused: boolean;
  onResume(): void;
  links: LineLinks;
  /** The log's height (it scrolls inside itself). */
  height: string | Record<string, string>;
}

/** The lines of one filter: the scrolling log, its states and its footer. Keyed by the filter. */
export function ConsoleFeedView({ source, filter, paused, onResume, links, height }: Props) {
  const { state, enabled, newest, older, loadOlder } = useConsoleFeed(source, filter, paused);
  const { entries } = state;
  const logRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  // Null while following the live end; else the seq of the first row rendered, which stays.
  const [anchor, setAnchor] = useState<number | null>(null);

  const anchorIndex = anchor === null ? -1 : entries.findIndex((entry) => entry.seq >= anchor);
  const start = anchor === null || anchorIndex < 0 ? Math.max(0, entries.length - CONSOLE_RENDERED_ROWS) : anchorIndex;
  const rendered = entries.slice(start);

  // Resuming goes back to the live end (the waiting lines come in with the next render).
  useEffect(() => {
    if (paused) return;
    following.current = true;
    setAnchor(null);
  }, [paused]);

  useLayoutEffect(() => {
    const log = logRef.current;
    if (log && following.current) log.scrollTop = log.scrollHeight;
  }, [entries, anchor]);

  // A log that changes size (a phone turned, the window resized) stays at the live end it followed.
  useEffect(() => {
    const log = logRef.current;
    if (!log || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) log.scrollTop = log.scrollHeight;
    });
    observer.observe(log);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const log = logRef.current;
    if (!log) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight <= FOLLOW_SLACK_PX;
    if (atBottom === following.current) return;
    following.current = atBottom;
    setAnchor(atBottom ? null : (rendered[0]?.seq ?? null));
  };

  const showEarlier = () => {
    following.current = false;
    setAnchor(entries[Math.max(0, start - CONSOLE_RENDERED_ROWS)]?.seq ?? null);
  };

  const showServer = filter.serverId === null;
  const lineCount = entries.filter((entry) => entry.kind === 'line').length;

  let body: ReactNode;
  if (!enabled) body = <Message>{CONSOLE_TEXT.noLevels}</Message>;
  else if (!state.loaded && newest.isError) {
    body = (
      <Message>
        <Text color="fg.error">{CONSOLE_TEXT.failed}</Text>
        <Button size="xs" variant="outline" onClick={() => void newest.refetch()} loading={newest.isFetching}>
          {CONSOLE_TEXT.retry}
        </Button>
      </Message>
    );
  } else if (!state.loaded) {
    body = (
      <Message>
        <Spinner size="sm" /> {CONSOLE_TEXT.loading}
      </Message>
    );
  } else if (entries.length === 0) {
    const searching = filter.q !== '' || filter.levels.length < ALL_LEVELS.length;
    body = <Message>{searching ? CONSOLE_TEXT.noMatch : CONSOLE_TEXT.empty}</Message>;
  } else {
    body = (
      <>
        <Flex justify="center" gap="2" py="1.5" wrap="wrap">
          {start > 0 ? (
            <Button size="xs" variant="ghost" onClick={showEarlier}>
              Show earlier lines ({countText(start, 'more', 'more')})
            </Button>
          ) : state.olderCursor !== null ? (
            <Button size="xs" variant="ghost" onClick={loadOlder} loading={older.isPending}>
              {CONSOLE_TEXT.loadOlder}
            </Button>
          ) : state.trimmed ? (
            <Text color="fg.muted">{CONSOLE_TEXT.trimmed}</Text>
          ) : null}
          {older.isError && <Text color="fg.error">{CONSOLE_TEXT.olderFailed}</Text>}
        </Flex>
        {rendered.map((entry) => (
          <ConsoleEntryRow key={entry.key} entry={entry} showServer={showServer} links={links} />
        ))}
      </>
    );
  }

  return (
    <Stack gap="2" minW="0">
      <Box
        ref={logRef}
        role="log"
        aria-label={CONSOLE_TEXT.lines}
        // A flood must not be read out line by line; the reader moves through the log instead.
        aria-live="off"
        tabIndex={0}
        onScroll={onScroll}
        height={height}
        overflowY="auto"
        overflowX="hidden"
        borderWidth="1px"
        borderRadius="md"
        bg="bg.subtle"
        fontFamily="mono"
        fontSize="xs"
        lineHeight="1.6"
        py="1"
        focusRing="outside"
        css={CONSOLE_LOG_CSS}
      >
        {body}
      </Box>
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" data-testid="console-count">
          {state.loaded ? countText(lineCount, 'line', 'lines') : ''}
        </Text>
        <Flex gap="2" align="center" wrap="wrap">
          {paused && <NewLinesMarker count={state.waitingLines} onResume={onResume} />}
          <CopyLinesButton text={() => entriesAsText(entries)} disabled={entries.length === 0} />
        </Flex>
      </Flex>
    </Stack>
  );
}

function Message({ children }: { children: ReactNode }) {
  return (
    <Center
      height="full"
      minH="24"
      px="4"
      gap="2"
      flexWrap="wrap"
      textAlign="center"
      fontFamily="body"
      fontSize="sm"
      color="fg.muted"
    >
      {children}
    </Center>
  );
}

/** While paused: how many new lines wait; a click shows them and follows the live end again. */
function NewLinesMarker({ count, onResume }: { count: number; onResume(): void }) {
  if (count === 0) {
    return (
      <Text fontSize="sm" color="fg.muted">
        {CONSOLE_TEXT.paused}
      </Text>
    );
  }
  return (
    <Button size="xs" colorPalette="purple" onClick={onResume} data-testid="console-new-lines">
      <Play /> {countText(count, 'new line', 'new lines')}
    </Button>
  );
}

function CopyLinesButton({ text, disabled }: { text(): string; disabled: boolean }) {
  const { copied, copy } = useCopyToClipboard(CONSOLE_TEXT.copied);
  return (
    <Button
      size="xs"
      variant="outline"
      aria-label={CONSOLE_TEXT.copyLabel}
      onClick={() => void copy(text())}
      disabled={disabled}
    >
      {copied ? <Check /> : <Copy />} {CONSOLE_TEXT.copy}
    </Button>
  );
}
