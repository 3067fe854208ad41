import { Box, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Sidebar } from './Sidebar.tsx';

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <Flex minH="100vh" bg="bg">
      <Sidebar />
      <Box as="main" flex="1" minW="0" px={{ base: '4', md: '8' }} py="6">
        {children}
      </Box>
    </Flex>
  );
}
