import { Box, Button, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { ArrowDown, Check, Copy, Play } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { useCopyToClipboard } from '../../lib/clipboard.ts';
import { countText, entriesAsText } from './console-format.ts';
import { ALL_LEVELS, type ConsoleFilter } from './console-feed.ts';
import type { ConsoleSource } from './console-source.ts';
import { CONSOLE_LOG_CSS } from './console-styles.ts';
import { CONSOLE_TEXT } from './console-text.ts';
import type { LineLinks } from './ConsoleLineRow.tsx';
import { ConsoleRows } from './ConsoleRows.tsx';
import { useConsoleFeed } from './useConsoleFeed.ts';
import { CONSOLE_HEAD_PX, useConsoleVirtualizer } from './useConsoleVirtualizer.ts';
import { useLogFollow } from './useLogFollow.ts';

interface Props {
  source: ConsoleSource;
  filter: ConsoleFilter;
  paused: boolean;
  onResume(): void;
  links: LineLinks;
  /** The log's height (it scrolls inside itself). */
  height: string | Record<string, string>;
}

/**
 * The lines of one filter: the scrolling log, its states and its footer. Keyed by the filter. The
 * log draws only the rows on screen (useConsoleVirtualizer.ts) and follows the live end until the
 * reader scrolls up (useLogFollow.ts).
 */
export function ConsoleFeedView({ source, filter, paused, onResume, links, height }: Props) {
  const { state, enabled, newest, older, loadOlder } = useConsoleFeed(source, filter, paused);
  const { entries } = state;
  const logRef = useRef<HTMLDivElement>(null);
  const listed = enabled && state.loaded && entries.length > 0;
  const headed = state.olderCursor !== null || state.trimmed || older.isError;
  const virtualizer = useConsoleVirtualizer(logRef, entries, { shown: listed, headPx: headed ? CONSOLE_HEAD_PX : 0 });
  const { onScroll, newLines, jumpToLatest } = useLogFollow({
    log: logRef,
    virtualizer,
    entries,
    nextSeq: state.nextSeq,
    paused,
    // After a failed page, the button asks again; scrolling does not keep asking.
    loadOlder: older.isError ? noop : loadOlder,
  });

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
    const head = headed ? (
      <>
        {state.olderCursor !== null ? (
          <Button size="xs" variant="ghost" onClick={loadOlder} loading={older.isPending}>
            {CONSOLE_TEXT.loadOlder}
          </Button>
        ) : state.trimmed ? (
          <Text color="fg.muted">{CONSOLE_TEXT.trimmed}</Text>
        ) : null}
        {older.isError && <Text color="fg.error">{CONSOLE_TEXT.olderFailed}</Text>}
      </>
    ) : null;
    body = (
      <ConsoleRows virtualizer={virtualizer} entries={entries} head={head} showServer={showServer} links={links} />
    );
  }

  return (
    <Stack gap="2" minW="0">
      <Box position="relative">
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
          // The virtual list keeps the reading position itself; the browser's own anchoring would
          // move it a second time.
          overflowAnchor="none"
          borderWidth="1px"
          borderRadius="md"
          bg="bg.subtle"
          fontFamily="mono"
          fontSize="xs"
          lineHeight="1.6"
          focusRing="outside"
          css={CONSOLE_LOG_CSS}
        >
          {body}
        </Box>
        {newLines > 0 && <JumpToLatest count={newLines} onClick={jumpToLatest} />}
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

const noop = () => {};

/** Scrolled up to read: how many lines came since, and the way back to the live end. */
function JumpToLatest({ count, onClick }: { count: number; onClick(): void }) {
  return (
    <Button
      position="absolute"
      bottom="3"
      left="50%"
      transform="translateX(-50%)"
      size="xs"
      colorPalette="purple"
      boxShadow="md"
      onClick={onClick}
      data-testid="console-jump"
    >
      <ArrowDown /> {countText(count, 'new line', 'new lines')}: {CONSOLE_TEXT.jumpToLatest}
    </Button>
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
