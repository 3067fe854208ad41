import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { OidcCallbackRequest, OidcStartResponse, SignInMethods, User } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';
import { callbackUrl } from '../../../lib/oidc-flow.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { currentUserQuery } from './current-user.ts';

/** How the signed-in user can sign in: a password, the identity provider, or both. */
export const signInMethodsQuery = () =>
  queryOptions({
    queryKey: ['/api/user/sign-in-methods'],
    queryFn: () => apiRequest<SignInMethods>('GET', '/api/user/sign-in-methods'),
  });

export function useSignInMethods() {
  const token = useSession((state) => state.token);
  return useQuery({ ...signInMethodsQuery(), enabled: Boolean(token) });
}

/** The account changed: the stored user, the current-user cache and the sign-in methods follow. */
function accountChanged(user: User): Promise<void> {
  useSession.getState().setUser(user);
  queryClient.setQueryData(currentUserQuery().queryKey, user);
  return queryClient.invalidateQueries({ queryKey: signInMethodsQuery().queryKey });
}

/** Asks the server for the provider's authorization URL of a link attempt for this account. */
export const useStartGoogleLink = () =>
  useMutation({
    mutationFn: () => apiRequest<OidcStartResponse>('POST', '/api/user/google/start', { redirectUri: callbackUrl() }),
  });

/** Finishes a link attempt at /auth/callback. */
export const useLinkGoogle = () =>
  useMutation({
    mutationFn: (input: OidcCallbackRequest) => apiRequest<User>('POST', '/api/user/google', input),
    onSuccess: accountChanged,
  });

export const useUnlinkGoogle = () =>
  useMutation({
    mutationFn: () => apiRequest<User>('DELETE', '/api/user/google'),
    onSuccess: accountChanged,
  });
