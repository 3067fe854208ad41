import { Box, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { CONSOLE_LEVELS } from '@moonrelay/contract/constants';
import type { ConsoleLevel } from '@moonrelay/contract/console';
import { CONSOLE_TEXT } from '../../components/console/console-text.ts';
import { ConsolePanel } from '../../features/game/console/ConsolePanel.tsx';
import { useScripts } from '../../features/scripts/api/scripts.ts';
import { PageHeading } from '../../components/PageHeading.tsx';

/** `?level=error,warning`: the levels named, or all when none is valid. */
function levelsOf(value: string | null): ConsoleLevel[] | undefined {
  const levels = CONSOLE_LEVELS.filter((level) => value?.split(',').includes(level));
  return levels.length ? levels : undefined;
}

/**
 * /console: the game console full size. `?server=` and `?level=` choose what it opens on (a server
 * card's error count links here with both).
 */
export default function ConsolePage() {
  const [params] = useSearchParams();
  const { search } = useLocation();
  // The scripts feature's list: an error in a saved script opens the editor at its line.
  const scripts = useScripts();
  const server = params.get('server');
  const level = params.get('level');
  const initialFilter = useMemo(() => ({ serverId: server, levels: levelsOf(level) }), [server, level]);
  return (
    <Stack gap="6">
      <Box>
        <PageHeading>{CONSOLE_TEXT.title}</PageHeading>
        <Text color="fg.muted">{CONSOLE_TEXT.subtitle}</Text>
      </Box>
      <ConsolePanel
        key={search}
        scripts={scripts.data}
        initialFilter={initialFilter}
        height={{ base: '60vh', md: 'calc(100vh - 17rem)' }}
      />
    </Stack>
  );
}
