import { Box, Button, Field, Flex, Group, Input, Stack } from '@chakra-ui/react';
import { Pause, Play } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { CONSOLE_SEARCH_MAX_CHARS } from '@moonrelay/contract/constants';
import { CONSOLE_LEVELS } from '@moonrelay/contract/constants';
import type { ConsoleLevel } from '@moonrelay/contract/console';
import { ServerSelect } from '../ServerSelect.tsx';
import { LEVEL_LABELS, LEVEL_PALETTES } from './console-format.ts';
import { ALL_LEVELS, type ConsoleFilter } from './console-feed.ts';
import { filterKeyOf, type ConsoleSource } from './console-source.ts';
import { CONSOLE_TEXT } from './console-text.ts';
import { ConsoleFeedView } from './ConsoleFeedView.tsx';
import type { LineLinks } from './ConsoleLineRow.tsx';

/** Typing pauses this long before the search is asked of the server. */
export const CONSOLE_SEARCH_DEBOUNCE_MS = 300;

export interface ConsoleServerOption {
  serverId: string;
  /** What the picker says, e.g. "a4f0c3c2… · builderman (2 errors in the last hour)". */
  label: string;
}

interface Props {
  source: ConsoleSource;
  /** The game servers to choose from (besides all of them merged). */
  servers: readonly ConsoleServerOption[];
  initialFilter?: Partial<ConsoleFilter>;
  links?: LineLinks;
  /** The log's height: it scrolls inside itself, so the page never scrolls sideways. */
  height: string | Record<string, string>;
}

const NO_LINKS: LineLinks = { scripts: [], runs: false };

/**
 * A game console: server picker, search, level toggles and pause over the live log. Any change of
 * server, levels or search is a new query (the server filters what came before; live lines are
 * matched here), so the log below is keyed by the filter and starts afresh.
 */
export function ConsoleView({ source, servers, initialFilter = {}, links = NO_LINKS, height }: Props) {
  const [serverId, setServerId] = useState<string | null>(initialFilter.serverId ?? null);
  const [levels, setLevels] = useState<readonly ConsoleLevel[]>(initialFilter.levels ?? ALL_LEVELS);
  const [search, setSearch] = useState(initialFilter.q ?? '');
  const [q, setQ] = useState(search.trim());
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), CONSOLE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const filter = useMemo<ConsoleFilter>(() => ({ serverId, levels, q }), [serverId, levels, q]);
  const options =
    serverId === null || servers.some((server) => server.serverId === serverId)
      ? servers
      : [...servers, { serverId, label: serverId }];

  const toggle = (level: ConsoleLevel) =>
    setLevels((current) =>
      CONSOLE_LEVELS.filter((each) => (each === level ? !current.includes(each) : current.includes(each))),
    );

  return (
    <Stack gap="3" minW="0">
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Box width={{ base: 'full', sm: 'auto' }} minW={{ sm: '12rem' }} maxW={{ sm: '18rem' }}>
          <ServerSelect
            label={CONSOLE_TEXT.server}
            servers={options}
            value={serverId ?? ''}
            onChange={(chosen) => setServerId(chosen === '' ? null : chosen)}
            allLabel={CONSOLE_TEXT.allServers}
          />
        </Box>
        <Field.Root flex="1" minW={{ base: 'full', sm: '12rem' }}>
          <Field.Label>{CONSOLE_TEXT.search}</Field.Label>
          <Input
            size="sm"
            type="search"
            value={search}
            maxLength={CONSOLE_SEARCH_MAX_CHARS}
            placeholder={CONSOLE_TEXT.searchPlaceholder}
            onChange={(event) => setSearch(event.target.value)}
          />
        </Field.Root>
        <Group role="group" aria-label={CONSOLE_TEXT.levels} gap="1" wrap="wrap">
          {CONSOLE_LEVELS.map((level) => {
            const on = levels.includes(level);
            return (
              <Button
                key={level}
                size="sm"
                variant={on ? 'subtle' : 'outline'}
                colorPalette={on ? LEVEL_PALETTES[level] : 'gray'}
                aria-pressed={on}
                onClick={() => toggle(level)}
                textDecoration={on ? undefined : 'line-through'}
              >
                {LEVEL_LABELS[level]}
              </Button>
            );
          })}
        </Group>
        <Button
          size="sm"
          variant={paused ? 'solid' : 'outline'}
          colorPalette={paused ? 'purple' : 'gray'}
          onClick={() => setPaused(!paused)}
        >
          {paused ? <Play /> : <Pause />} {paused ? CONSOLE_TEXT.resume : CONSOLE_TEXT.pause}
        </Button>
      </Flex>
      <ConsoleFeedView
        key={JSON.stringify(filterKeyOf(filter))}
        source={source}
        filter={filter}
        paused={paused}
        onResume={() => setPaused(false)}
        links={links}
        height={height}
      />
    </Stack>
  );
}
