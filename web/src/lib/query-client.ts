import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api-client.ts';
import { useSession } from './session.ts';

/**
 * Server state (spec section 9): data never goes stale, no refetch on focus, no polling and no
 * retries by default. The default fetch is a GET of the query key's parts joined with '/'.
 */
const defaultQueryFn: QueryFunction = ({ queryKey }) => apiRequest('GET', queryKey.join('/'));

/** A 401 on any call means the stored token is no longer valid: forget it (the sign-in screen shows). */
function onAuthFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 401 && useSession.getState().token) {
    useSession.getState().signOut();
    queryClient.clear();
  }
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onAuthFailure }),
  mutationCache: new MutationCache({ onError: onAuthFailure }),
  defaultOptions: {
    queries: { queryFn: defaultQueryFn, staleTime: Infinity, refetchOnWindowFocus: false, retry: false },
    mutations: { retry: false },
  },
});
