import { Box, Button, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { LogOut, Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ApiAccessCard } from '../../features/account/components/ApiAccessCard.tsx';
import { useLogout } from '../../features/auth/api/logout.ts';
import { ScriptExecutorPanel } from '../../features/game/executor/ScriptExecutorPanel.tsx';
import { IntegrationPanel } from '../../features/game/integration/IntegrationPanel.tsx';
import { GamePanel } from '../../features/game/panel/GamePanel.tsx';
import { useScripts } from '../../features/scripts/api/scripts.ts';
import { RecentScripts } from '../../features/scripts/components/RecentScripts.tsx';
import { ScriptStats } from '../../features/scripts/components/ScriptStats.tsx';

/**
 * The dashboard (spec section 2): API access, script statistics and the most recent scripts; below
 * them the game: its connection and controls, the integration scripts and the script executor.
 */
export default function DashboardPage() {
  const logout = useLogout();
  // The executor lists the scripts feature's list; the game feature does not reach into it itself.
  const scripts = useScripts();
  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="4">
        <Box>
          <Heading size="2xl">Dashboard</Heading>
          <Text color="fg.muted">Manage your Lua scripts and API access</Text>
        </Box>
        <HStack>
          <Button asChild colorPalette="purple">
            <Link to="/editor">
              <Plus size={16} /> New Script
            </Link>
          </Button>
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut size={16} /> Logout
          </Button>
        </HStack>
      </Flex>
      <ApiAccessCard />
      <ScriptStats />
      <RecentScripts />
      <GamePanel />
      <IntegrationPanel />
      <ScriptExecutorPanel scripts={scripts.data} scriptsFailed={scripts.isError} />
    </Stack>
  );
}
