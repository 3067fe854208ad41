import { Box, Button, Flex, Link, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronRight, ExternalLink, FileCode, TriangleAlert } from 'lucide-react';
import { memo, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ConsoleLevel, ConsoleLine } from '@moonrelay/contract/console';
import { shortId } from '../../lib/format.ts';
import { dropText, gapText, lineClock, lineDateTime } from './console-format.ts';
import type { ConsoleEntry } from './console-feed.ts';
import { savedScriptPlace, type ScriptRef } from './script-line.ts';

/**
 * One entry of the console. Every text from a game is a React text child, so it is always shown as
 * text (escaped), never read as HTML. Rows are memoized by their entry: a new line renders one row,
 * not the thousands before it; the browser skips laying out rows off screen (content-visibility).
 */

/** What an error line may link to. */
export interface LineLinks {
  /** Saved scripts whose lines an error may name (the editor opens there); empty for none. */
  scripts: readonly ScriptRef[];
  /** Link lines of code Moonrelay ran to their run (/runs?id=). */
  runs: boolean;
}

const ROW_CSS = { contentVisibility: 'auto', containIntrinsicSize: 'auto 1.6em' } as const;

const levelColor: Record<ConsoleLevel, string> = {
  output: 'fg',
  info: 'fg.info',
  warning: 'fg.warning',
  error: 'fg.error',
};

function Row({ children, tone, testId }: { children: ReactNode; tone?: 'error' | 'warning'; testId: string }) {
  return (
    <Flex
      data-testid={testId}
      gap="2"
      columnGap="3"
      px="3"
      py="0.5"
      wrap="wrap"
      align="baseline"
      borderLeftWidth="3px"
      borderColor={tone === 'error' ? 'border.error' : tone === 'warning' ? 'border.warning' : 'transparent'}
      bg={tone === 'error' ? 'bg.error' : tone === 'warning' ? 'bg.warning' : undefined}
      css={ROW_CSS}
    >
      {children}
    </Flex>
  );
}

function Time({ iso }: { iso: string }) {
  return (
    <Text asChild color="fg.muted" flexShrink={0}>
      <time dateTime={iso} title={lineDateTime(iso)}>
        {lineClock(iso)}
      </time>
    </Text>
  );
}

function LinesOf({ line, links }: { line: ConsoleLine; links: LineLinks }) {
  const place = line.level === 'error' ? savedScriptPlace(line, links.scripts) : null;
  const run = links.runs && line.executionId;
  if (!place && !run) return null;
  return (
    <Flex gap="3" wrap="wrap">
      {run && (
        <Link asChild color="fg.error" textDecoration="underline" fontSize="xs">
          <RouterLink to={`/runs?id=${encodeURIComponent(line.executionId!)}`}>
            <ExternalLink size={12} /> Open run
          </RouterLink>
        </Link>
      )}
      {place && (
        <Link asChild color="fg.error" textDecoration="underline" fontSize="xs">
          <RouterLink to={`/editor?id=${encodeURIComponent(place.script.id)}&line=${place.line}`}>
            <FileCode size={12} /> {place.script.name}, line {place.line}
          </RouterLink>
        </Link>
      )}
    </Flex>
  );
}

interface LineProps {
  line: ConsoleLine;
  showServer: boolean;
  links: LineLinks;
}

const LineRow = memo(function LineRow({ line, showServer, links }: LineProps) {
  const [stackOpen, setStackOpen] = useState(false);
  const stackId = useId();
  const error = line.level === 'error';
  return (
    <Row testId="console-line" tone={error ? 'error' : line.level === 'warning' ? 'warning' : undefined}>
      <Time iso={line.time} />
      <Text
        as="span"
        width="7ch"
        flexShrink={0}
        color={line.level === 'output' ? 'fg.muted' : levelColor[line.level]}
        fontWeight={error ? 'bold' : undefined}
      >
        {line.level}
      </Text>
      {showServer && (
        <Text as="span" color="fg.muted" title={line.serverId} flexShrink={0}>
          {shortId(line.serverId)}
        </Text>
      )}
      <Text
        as="span"
        data-testid="console-line-text"
        flexGrow={1}
        flexBasis="16rem"
        minW="0"
        whiteSpace="pre-wrap"
        wordBreak="break-word"
        color={line.own ? 'fg.muted' : levelColor[line.level]}
        fontStyle={line.own ? 'italic' : undefined}
      >
        {line.text}
      </Text>
      {line.stack && (
        <Button
          size="2xs"
          variant="ghost"
          colorPalette={error ? 'red' : 'gray'}
          aria-expanded={stackOpen}
          aria-controls={stackId}
          onClick={() => setStackOpen((open) => !open)}
        >
          {stackOpen ? <ChevronDown /> : <ChevronRight />} Stack
        </Button>
      )}
      <LinesOf line={line} links={links} />
      {line.stack && stackOpen && (
        <Box
          as="pre"
          id={stackId}
          data-testid="console-line-stack"
          width="full"
          ps="4"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          color={error ? 'fg.error' : 'fg.muted'}
        >
          {line.stack}
        </Box>
      )}
    </Row>
  );
});

function Notice({ iso, children }: { iso?: string; children: ReactNode }) {
  return (
    <Row testId="console-drop" tone="warning">
      {iso && <Time iso={iso} />}
      <Flex as="span" gap="1.5" align="center" color="fg.warning" fontWeight="medium">
        <TriangleAlert size={12} /> {children}
      </Flex>
    </Row>
  );
}

export const ConsoleEntryRow = memo(function ConsoleEntryRow({
  entry,
  showServer,
  links,
}: {
  entry: ConsoleEntry;
  showServer: boolean;
  links: LineLinks;
}) {
  if (entry.kind === 'line') return <LineRow line={entry.line} showServer={showServer} links={links} />;
  if (entry.kind === 'drop') {
    return <Notice iso={entry.drop.time}>{dropText(entry.drop.count, shortId(entry.drop.serverId))}</Notice>;
  }
  return <Notice>{gapText(entry.count)}</Notice>;
});
