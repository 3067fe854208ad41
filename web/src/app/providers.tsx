import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from '../lib/query-client.ts';
import { Toaster } from '../lib/toaster.tsx';
import { uiSystem } from './ui-system.ts';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={uiSystem}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>{children}</BrowserRouter>
        <Toaster />
      </QueryClientProvider>
    </ChakraProvider>
  );
}
