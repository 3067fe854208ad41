import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { queryClient } from '../lib/query-client.ts';
import { Toaster } from '../lib/toaster.tsx';

/**
 * Renders a component with the providers the app gives it: Chakra, the app's query client (its real
 * defaults; emptied after every test by setup.ts) and a router at `route`.
 */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  return {
    queryClient,
    ...render(
      <ChakraProvider value={defaultSystem}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
          <Toaster />
        </QueryClientProvider>
      </ChakraProvider>,
    ),
  };
}

/**
 * A fetch stub answering JSON by "METHOD path" (path without the query string). A handler gets the
 * request's body, and its URL for answers that depend on the query (a list's page).
 */
export function jsonFetch(routes: Record<string, (body: unknown, url?: URL) => { status?: number; body: unknown }>) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const handler = routes[key];
    if (!handler) return new Response(JSON.stringify({ error: 'Not found' }), { status: 404 });
    const { status = 200, body } = handler(init?.body ? JSON.parse(String(init.body)) : undefined, url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}
