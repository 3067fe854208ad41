import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  GameCommandRequest,
  GameCommandResponse,
  IntegrationScripts,
  PlayerProfile,
} from '@moonrelay/contract/game';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ExecutionResult } from '../../../lib/execution-result.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useCan } from '../../../lib/team-access.ts';

/** Queues a command for the game (POST /api/game/command). */
export const useSendCommand = () =>
  useMutation({
    mutationFn: (command: GameCommandRequest) =>
      apiRequest<GameCommandResponse>('POST', '/api/game/command', command, { idempotent: true }),
  });

/** A Roblox player's profile, fetched by Moonrelay (games cannot reach roblox.com); 502 when Roblox cannot be reached. */
export const playerProfileQuery = (userId: string) =>
  queryOptions({
    queryKey: ['/api/game/profile', userId],
    queryFn: () => apiRequest<PlayerProfile>('GET', `/api/game/profile?userId=${encodeURIComponent(userId)}`),
  });

/** Requested only when the player's userId is known and the game is connected (spec section 4). */
export function usePlayerProfile(userId: string | number | undefined, enabled: boolean) {
  const id = userId === undefined ? '' : String(userId);
  return useQuery({ ...playerProfileQuery(id), enabled: enabled && id !== '' });
}

/**
 * The three scripts of the Integration panel. They carry the user's API key, so the key is part of
 * the query key: after the key is regenerated the scripts are fetched again with the new one. Not
 * asked for where the member's role may not manage the team's keys (keys.manage): the answer would
 * hand over the team's game key.
 */
export function useIntegrationScripts() {
  const apiKey = useSession((state) => state.user?.apiKey ?? null);
  const keys = useCan('keys.manage');
  const query = useQuery({
    queryKey: ['/api/game/integration-scripts', apiKey],
    queryFn: () => apiRequest<IntegrationScripts>('GET', '/api/game/integration-scripts'),
    enabled: keys.allowed,
  });
  return { query, keys };
}

/** The scripts feature's list (its query key is its GET path): a run changes a script's executionCount. */
const SCRIPTS_QUERY_KEY = ['/api/scripts'] as const;
export const refreshScriptList = () => queryClient.invalidateQueries({ queryKey: SCRIPTS_QUERY_KEY });

/** Where the executor runs code: the game, on the chosen server when several are live. */
export interface GameRun {
  serverId?: string;
}

const gameTarget = ({ serverId }: GameRun) => ({ target: 'game' as const, ...(serverId ? { serverId } : {}) });

/** Runs a saved script in the game (POST /api/scripts/{id}/execute). */
export const useRunSavedScript = () =>
  useMutation({
    mutationFn: ({ id, ...run }: GameRun & { id: string }) =>
      apiRequest<ExecutionResult>('POST', `/api/scripts/${encodeURIComponent(id)}/execute`, gameTarget(run), {
        idempotent: true,
      }),
    onSettled: refreshScriptList,
  });

/** Runs code that is not saved in the game (POST /api/scripts/execute). */
export const useRunCode = () =>
  useMutation({
    mutationFn: ({ code, ...run }: GameRun & { code: string }) =>
      apiRequest<ExecutionResult>('POST', '/api/scripts/execute', { code, ...gameTarget(run) }, { idempotent: true }),
  });
