import type { IntegrationScripts } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useIntegrationScripts } from '../api/game.ts';

/**
 * Where the integration scripts stand, for the panel and for the connection steps above it (one
 * request: both read the same query). `not-served`: the dashboard was opened at a host Moonrelay
 * does not write into scripts (PUBLIC_URL unset and the host not in PUBLIC_HOSTS), so none is shown.
 */
export type IntegrationState =
  | { kind: 'loading' }
  | { kind: 'shown'; scripts: IntegrationScripts }
  | { kind: 'not-served' }
  | { kind: 'failed'; error: unknown };

export function useIntegrationState(): { state: IntegrationState; isAdmin: boolean } {
  const scripts = useIntegrationScripts();
  const isAdmin = useSession((session) => session.user?.isAdmin ?? false);
  return { state: stateOf(scripts), isAdmin };
}

function stateOf(scripts: ReturnType<typeof useIntegrationScripts>): IntegrationState {
  if (scripts.data) return { kind: 'shown', scripts: scripts.data };
  if (!scripts.isError) return { kind: 'loading' };
  const notServed = scripts.error instanceof ApiError && scripts.error.serverMessage === ERRORS.hostNotServed;
  return notServed ? { kind: 'not-served' } : { kind: 'failed', error: scripts.error };
}
