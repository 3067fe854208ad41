import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AuthProviders, OidcCallbackRequest, OidcStartResponse } from '@moonrelay/contract/auth';
import type { LoginResponse } from '@moonrelay/contract/two-factor';
import { apiRequest } from '../../../lib/api-client.ts';
import { callbackUrl } from '../../../lib/oidc-flow.ts';

/** Which identity-provider buttons this server offers. */
export const authProvidersQuery = () =>
  queryOptions({
    queryKey: ['/api/auth/providers'],
    queryFn: () => apiRequest<AuthProviders>('GET', '/api/auth/providers'),
  });

export const useAuthProviders = () => useQuery(authProvidersQuery());

/** Asks the server for the provider's authorization URL (with this site's callback as redirect_uri). */
export const startGoogleSignIn = () =>
  apiRequest<OidcStartResponse>('POST', '/api/auth/google/start', { redirectUri: callbackUrl() });

export const useStartGoogleSignIn = () => useMutation({ mutationFn: startGoogleSignIn });

/**
 * The code exchange: the provider's code and state go to the server, a session comes back, or a
 * challenge for the second factor when the account has one (as a password login answers).
 */
export const googleSignIn = (input: OidcCallbackRequest) =>
  apiRequest<LoginResponse>('POST', '/api/auth/google', input);

export const useGoogleSignIn = () => useMutation({ mutationFn: googleSignIn });
