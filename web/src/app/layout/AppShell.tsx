import { Box, Drawer, Flex, Heading, IconButton, Portal, Text } from '@chakra-ui/react';
import { Menu } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { APP_NAME, APP_VERSION } from '@moonrelay/contract/constants';
import { CurrentTeamName } from '../../features/teams/components/CurrentTeamName.tsx';
import { Sidebar } from './Sidebar.tsx';

/**
 * The signed-in screens' frame: the sidebar beside the screen; on a narrow screen (a phone) a bar
 * with the app title and a menu button instead, which opens the same sidebar over the screen.
 */
export function AppShell({ children }: { children: ReactNode }) {
  // Every navigation has a key of its own, a link to the screen already shown included.
  const { key } = useLocation();
  const [menu, setMenu] = useState({ open: false, key });
  // Following a link in the menu closes it, the current screen's link too.
  if (menu.key !== key) setMenu({ open: false, key });
  const setOpen = (open: boolean) => setMenu({ open, key });

  return (
    <Flex minH="100vh" bg="bg">
      <Box display={{ base: 'none', md: 'block' }} flexShrink={0}>
        <Sidebar />
      </Box>
      <Box flex="1" minW="0">
        <Flex
          display={{ base: 'flex', md: 'none' }}
          align="center"
          justify="space-between"
          px="4"
          py="2"
          borderBottomWidth="1px"
          bg="bg.panel"
          position="sticky"
          top="0"
          zIndex="sticky"
        >
          <Heading size="md">
            {APP_NAME}{' '}
            <Text as="span" fontSize="xs" color="fg.muted">
              {APP_VERSION}
            </Text>
          </Heading>
          <CurrentTeamName />
          <IconButton aria-label="Open menu" variant="ghost" onClick={() => setOpen(true)}>
            <Menu />
          </IconButton>
        </Flex>
        <Box as="main" px={{ base: '4', md: '8' }} py="6">
          {children}
        </Box>
      </Box>
      {/* The sidebar inside is drawn at the first opening and then kept, hidden while closed: drawing
          it again at every tap was most of what opening the menu cost on a phone. */}
      <Drawer.Root
        open={menu.open}
        onOpenChange={(details) => setOpen(details.open)}
        placement="start"
        lazyMount
        unmountOnExit={false}
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            {/* Named for screen readers: the sidebar inside has no heading that would name it. */}
            <Drawer.Content maxW="64" aria-label="Menu">
              <Sidebar />
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Flex>
  );
}
