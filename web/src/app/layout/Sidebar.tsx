import { Box, Button, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { LogOut } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { APP_NAME, APP_VERSION } from '@moonrelay/contract/constants';
import { useCurrentUser } from '../../features/account/api/current-user.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { TeamSwitcher } from '../../features/teams/components/TeamSwitcher.tsx';
import { useSession } from '../../lib/session.ts';
import { useTeam } from '../../lib/team.ts';
import { teamSearch } from '../../lib/team-switch.ts';
import { isActive, NAV_ITEMS } from './nav-items.ts';

export function Sidebar() {
  const { pathname } = useLocation();
  const storedUser = useSession((state) => state.user);
  const { data: fetchedUser } = useCurrentUser();
  const user = fetchedUser ?? storedUser;
  const logout = useLogout();
  // The links name the chosen team, so one opened in a new tab or copied opens that team's page.
  const teamId = useTeam((state) => state.teamId);
  const search = teamId ? teamSearch(teamId) : '';

  return (
    <Flex
      as="nav"
      aria-label="Main"
      direction="column"
      width="64"
      flexShrink={0}
      borderRightWidth="1px"
      bg="bg.panel"
      minH="100vh"
      position="sticky"
      top="0"
      height="100vh"
    >
      <Box px="5" py="5">
        <Heading size="lg">
          {APP_NAME}{' '}
          <Text as="span" fontSize="xs" color="fg.muted">
            {APP_VERSION}
          </Text>
        </Heading>
      </Box>
      <Box px="3" pb="3">
        <TeamSwitcher />
      </Box>
      <Stack gap="1" px="3" flex="1">
        {NAV_ITEMS.filter((item) => !item.adminOnly || user?.isAdmin).map((item) => {
          const active = isActive(item, pathname);
          return (
            <Button
              key={item.path}
              asChild
              variant={active ? 'subtle' : 'ghost'}
              colorPalette={active ? 'purple' : 'gray'}
              justifyContent="flex-start"
              aria-current={active ? 'page' : undefined}
            >
              <Link to={{ pathname: item.path, search }}>
                <Icon as={item.icon} boxSize="4" />
                {item.label}
              </Link>
            </Button>
          );
        })}
      </Stack>
      <Box borderTopWidth="1px" px="5" py="4">
        <Text fontWeight="medium" truncate data-testid="sidebar-user-name">
          {user?.name || 'User'}
        </Text>
        <Text fontSize="sm" color="fg.muted" truncate>
          {user?.email}
        </Text>
        <Button
          mt="3"
          size="sm"
          variant="outline"
          width="full"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
        >
          <LogOut size={14} /> Logout
        </Button>
      </Box>
    </Flex>
  );
}
