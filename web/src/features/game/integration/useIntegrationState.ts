import type { IntegrationScripts } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import type { Can } from '../../../lib/team-access.ts';
import { useIntegrationScripts } from '../api/game.ts';

/**
 * Where the integration scripts stand, for the panel and for the connection steps above it (one
 * request: both read the same query). `not-served`: the dashboard was opened at a host Moonrelay
 * does not write into scripts (PUBLIC_URL unset and the host not in PUBLIC_HOSTS), so none is shown.
 * `refused`: the member's role may not see them (they carry the team's game key), so none is asked for.
 */
export type IntegrationState =
  | { kind: 'loading' }
  | { kind: 'refused'; keys: Can }
  | { kind: 'shown'; scripts: IntegrationScripts }
  | { kind: 'not-served' }
  | { kind: 'failed'; error: unknown };

export function useIntegrationState(): { state: IntegrationState; isAdmin: boolean } {
  const { query, keys } = useIntegrationScripts();
  const isAdmin = useSession((session) => session.user?.isAdmin ?? false);
  return { state: keys.allowed ? stateOf(query) : { kind: 'refused', keys }, isAdmin };
}

function stateOf(scripts: ReturnType<typeof useIntegrationScripts>['query']): IntegrationState {
  if (scripts.data) return { kind: 'shown', scripts: scripts.data };
  if (!scripts.isError) return { kind: 'loading' };
  const notServed = scripts.error instanceof ApiError && scripts.error.serverMessage === ERRORS.hostNotServed;
  return notServed ? { kind: 'not-served' } : { kind: 'failed', error: scripts.error };
}
