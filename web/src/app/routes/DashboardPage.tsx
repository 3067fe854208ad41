import { Box, Button, Flex, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { LogOut, Maximize2, Plus } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { CONSOLE_TEXT } from '../../components/console/console-text.ts';
import { ApiAccessCard } from '../../features/account/components/ApiAccessCard.tsx';
import { useLogout } from '../../features/auth/api/logout.ts';
import { ScriptExecutorPanel } from '../../features/game/executor/ScriptExecutorPanel.tsx';
import { IntegrationPanel } from '../../features/game/integration/IntegrationPanel.tsx';
import { ConsolePanel } from '../../features/game/console/ConsolePanel.tsx';
import { GamePanel } from '../../features/game/panel/GamePanel.tsx';
import { useScripts } from '../../features/scripts/api/scripts.ts';
import { RecentScripts } from '../../features/scripts/components/RecentScripts.tsx';
import { ScriptStats } from '../../features/scripts/components/ScriptStats.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { useCan } from '../../lib/team-access.ts';

/**
 * The dashboard (spec section 2): API access, script statistics and the most recent scripts; below
 * them the game: its connection and controls, its live console, the integration scripts and the
 * script executor.
 */
export default function DashboardPage() {
  const logout = useLogout();
  // The executor lists the scripts feature's list; the game feature does not reach into it itself.
  const scripts = useScripts();
  const newScript = useCan('scripts.write');
  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="4">
        <Box>
          <PageHeading>Dashboard</PageHeading>
          <Text color="fg.muted">Manage your Lua scripts and API access</Text>
        </Box>
        <HStack>
          {/* A link can't be disabled: a role that may not write scripts gets a disabled button saying why. */}
          {newScript.allowed ? (
            <Button asChild colorPalette="purple">
              <RouterLink to="/editor">
                <Plus size={16} /> New Script
              </RouterLink>
            </Button>
          ) : (
            <Button colorPalette="purple" disabled title={newScript.reason}>
              <Plus size={16} /> New Script
            </Button>
          )}
          {/* The sidebar has Logout on a wide screen; on a phone the sidebar is folded into the menu,
              so the header keeps one. Either way the dashboard shows a single Logout. */}
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending} hideFrom="md">
            <LogOut size={16} /> Logout
          </Button>
        </HStack>
      </Flex>
      <ApiAccessCard />
      <ScriptStats />
      <RecentScripts />
      <GamePanel />
      <Stack as="section" aria-label={CONSOLE_TEXT.title} gap="4">
        <Flex justify="space-between" align="flex-end" wrap="wrap" gap="3">
          <Heading size="lg">{CONSOLE_TEXT.title}</Heading>
          <Link asChild fontSize="sm" color="fg.muted">
            <RouterLink to="/console">
              Open full size <Maximize2 size={14} />
            </RouterLink>
          </Link>
        </Flex>
        <ConsolePanel scripts={scripts.data} height={{ base: '60vh', md: '22rem' }} />
      </Stack>
      <IntegrationPanel />
      <ScriptExecutorPanel scripts={scripts.data} scriptsFailed={scripts.isError} />
    </Stack>
  );
}
