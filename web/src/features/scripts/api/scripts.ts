import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
} from '@tanstack/react-query';
import type {
  CreateScriptRequest,
  Script,
  ScriptPage,
  ScriptSummary,
  ScriptTypeFilter,
  UpdateScriptRequest,
} from '@moonrelay/contract/scripts';
import { DUPLICATE_SCRIPT_SUFFIX } from '@moonrelay/contract/constants';
import type { LuaCheckResponse } from '@moonrelay/contract/executions';
import type { ExecutionResult, ExecutionTarget } from '../../../lib/execution-result.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useCan } from '../../../lib/team-access.ts';

/** The user's scripts, newest first. Every mutation below refreshes this one list. */
export const scriptsQuery = () =>
  queryOptions({ queryKey: ['/api/scripts'], queryFn: () => apiRequest<Script[]>('GET', '/api/scripts') });

/**
 * Not asked for where the member's role may not read the team's scripts (scripts.read, a
 * moderator's for one): the server would refuse. The screens listing them say why instead.
 */
export function useScripts() {
  const token = useSession((state) => state.token);
  const read = useCan('scripts.read');
  return useQuery({ ...scriptsQuery(), enabled: Boolean(token) && read.allowed });
}

/** What My Scripts asks the server for: the search (name or description) and the type. */
export interface ScriptListFilter {
  q: string;
  type: ScriptTypeFilter;
}

/**
 * Every cached page list of My Scripts, whatever its filter. Under the list's own key, so each
 * refresh of `['/api/scripts']` (a save, a run, a delete, here and in the other features) refreshes
 * these too; the live run events, which refresh the list alone (exact), name this key as well.
 */
export const scriptPagesKey = ['/api/scripts', 'page'] as const;

function scriptPageQueryString({ q, type }: ScriptListFilter, cursor: string | undefined): string {
  const query = new URLSearchParams();
  if (q.trim()) query.set('q', q.trim());
  if (type !== 'all') query.set('type', type);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** My Scripts a page at a time (GET /api/scripts/page): summaries without code, newest first. */
export const scriptPagesQuery = (filter: ScriptListFilter) =>
  infiniteQueryOptions({
    queryKey: [...scriptPagesKey, { q: filter.q.trim(), type: filter.type }],
    queryFn: ({ pageParam }) =>
      apiRequest<ScriptPage>('GET', `/api/scripts/page${scriptPageQueryString(filter, pageParam)}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/**
 * The pages of My Scripts for this filter; asked for only where the role may read scripts. While
 * another search's first page is on its way, the last one's rows stay (no flash of 'Loading').
 */
export function useScriptPages(filter: ScriptListFilter) {
  const token = useSession((state) => state.token);
  const read = useCan('scripts.read');
  return useInfiniteQuery({
    ...scriptPagesQuery(filter),
    enabled: Boolean(token) && read.allowed,
    placeholderData: keepPreviousData,
  });
}

const refreshScripts = () => queryClient.invalidateQueries({ queryKey: scriptsQuery().queryKey });

export const useCreateScript = () =>
  useMutation({
    mutationFn: (input: CreateScriptRequest) => apiRequest<Script>('POST', '/api/scripts', input),
    onSuccess: refreshScripts,
  });

export const useUpdateScript = () =>
  useMutation({
    mutationFn: ({ id, ...update }: UpdateScriptRequest & { id: string }) =>
      apiRequest<Script>('PUT', `/api/scripts/${encodeURIComponent(id)}`, update),
    onSuccess: refreshScripts,
  });

export const useDeleteScript = () =>
  useMutation({
    mutationFn: (id: string) => apiRequest<{ success: true }>('DELETE', `/api/scripts/${encodeURIComponent(id)}`),
    onSuccess: refreshScripts,
  });

/**
 * A copy named '{name} (Copy)', always manual (spec section 9). The lists carry no code: the
 * script's code is read (GET /api/scripts/{id}) before the copy is made.
 */
export const useDuplicateScript = () =>
  useMutation({
    mutationFn: async (summary: ScriptSummary) => {
      const script = await apiRequest<Script>('GET', `/api/scripts/${encodeURIComponent(summary.id)}`);
      return apiRequest<Script>('POST', '/api/scripts', {
        name: `${script.name}${DUPLICATE_SCRIPT_SUFFIX}`,
        description: script.description,
        code: script.code,
        isAutoExecute: false,
      } satisfies CreateScriptRequest);
    },
    onSuccess: refreshScripts,
  });

export type { ExecutionLimit, ExecutionResult, ExecutionTarget } from '../../../lib/execution-result.ts';

/** The target goes in the body only when one is chosen: without it the server runs in the game. */
const targetBody = (target: ExecutionTarget | undefined) => (target ? { target } : {});

/** Runs a saved script (POST /api/scripts/{id}/execute) and refreshes counts afterwards. */
export const useExecuteScript = () =>
  useMutation({
    mutationFn: ({ id, target }: { id: string; target?: ExecutionTarget }) =>
      apiRequest<ExecutionResult>('POST', `/api/scripts/${encodeURIComponent(id)}/execute`, targetBody(target), {
        idempotent: true,
      }),
    onSettled: refreshScripts,
  });

/**
 * Runs the code on screen (POST /api/scripts/execute { code, target?, scriptId?, timeoutSeconds? }). `scriptId`: the
 * saved script the code comes from; the server counts the run as that script's when the code is
 * its saved code unchanged, and as custom code otherwise (docs/decisions/046-one-count-of-runs.md),
 * so the scripts' counts are fetched again afterwards.
 */
export const useExecuteCode = () =>
  useMutation({
    mutationFn: ({
      code,
      target,
      scriptId,
      timeoutSeconds,
    }: {
      code: string;
      target?: ExecutionTarget;
      scriptId?: string | null;
      /** Target cloud: how long Roblox may run it (the server's default: 300 s). */
      timeoutSeconds?: number;
    }) =>
      apiRequest<ExecutionResult>(
        'POST',
        '/api/scripts/execute',
        {
          code,
          ...targetBody(target),
          ...(scriptId ? { scriptId } : {}),
          ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
        },
        { idempotent: true },
      ),
    onSettled: refreshScripts,
  });

/**
 * Checks Luau syntax (POST /api/lua/check): diagnostics with 1-based lines and columns (UTF-16
 * units). 422 when the parser cannot handle the code, 503 when the checker is busy.
 */
export const checkLua = (code: string) => apiRequest<LuaCheckResponse>('POST', '/api/lua/check', { code });

/**
 * The editor checks as the user types: each check is a mutation (so a 401 signs out as any call
 * does), forgotten as soon as it settles (gcTime 0) rather than keeping every version of the code.
 */
export const useCheckLua = () => useMutation({ mutationFn: checkLua, gcTime: 0 });

/** Formats Luau (POST /api/lua/format); 400 'Lua syntax error: L:C: ...' when the code does not parse. */
export const useFormatLua = () =>
  useMutation({
    mutationFn: (code: string) => apiRequest<{ code: string }>('POST', '/api/lua/format', { code }),
    gcTime: 0,
  });
