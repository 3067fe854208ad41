import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiError, apiRequest, isSigningOut } from './api-client.ts';
import { SESSION_ENDED_NOTICE } from './notices.ts';
import { useSession } from './session.ts';

/**
 * Server state (spec section 9): data never goes stale, no refetch on focus, no polling and no
 * retries by default. The default fetch is a GET of the query key's parts joined with '/'.
 */
const defaultQueryFn: QueryFunction = ({ queryKey }) => apiRequest('GET', queryKey.join('/'));

/**
 * The session ended without this tab signing out (another device ended it, a password change, its
 * expiry): forget it and its cached data; the sign-in screen shows, saying so.
 */
export function sessionEnded(): void {
  if (!useSession.getState().token || isSigningOut()) return;
  useSession.getState().signOut(SESSION_ENDED_NOTICE);
  queryClient.clear();
}

/** A 401 on any call means the stored token is no longer valid: forget it (the sign-in screen shows). */
function onAuthFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) sessionEnded();
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onAuthFailure }),
  mutationCache: new MutationCache({ onError: onAuthFailure }),
  defaultOptions: {
    queries: { queryFn: defaultQueryFn, staleTime: Infinity, refetchOnWindowFocus: false, retry: false },
    mutations: { retry: false },
  },
});
