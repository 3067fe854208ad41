import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CreateScriptRequest, Script, UpdateScriptRequest } from '@moonrelay/contract/scripts';
import { DUPLICATE_SCRIPT_SUFFIX } from '@moonrelay/contract/constants';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

/** The user's scripts, newest first. Every mutation below refreshes this one list. */
export const scriptsQuery = () =>
  queryOptions({ queryKey: ['/api/scripts'], queryFn: () => apiRequest<Script[]>('GET', '/api/scripts') });

export function useScripts() {
  const token = useSession((state) => state.token);
  return useQuery({ ...scriptsQuery(), enabled: Boolean(token) });
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

/** A copy named '{name} (Copy)', always manual (spec section 9). */
export const useDuplicateScript = () =>
  useMutation({
    mutationFn: (script: Script) =>
      apiRequest<Script>('POST', '/api/scripts', {
        name: `${script.name}${DUPLICATE_SCRIPT_SUFFIX}`,
        description: script.description,
        code: script.code,
        isAutoExecute: false,
      } satisfies CreateScriptRequest),
    onSuccess: refreshScripts,
  });

export interface ExecutionResult {
  success?: boolean;
  output?: string;
  error?: string;
  queued?: boolean;
  gameConnected?: boolean;
  instructions?: string;
}

/** Runs a saved script (POST /api/scripts/{id}/execute) and refreshes counts afterwards. */
export const useExecuteScript = () =>
  useMutation({
    mutationFn: (id: string) =>
      apiRequest<ExecutionResult>('POST', `/api/scripts/${encodeURIComponent(id)}/execute`, {}),
    onSettled: refreshScripts,
  });

/** Runs code that is not saved (POST /api/scripts/execute { code }). */
export const useExecuteCode = () =>
  useMutation({
    mutationFn: (code: string) => apiRequest<ExecutionResult>('POST', '/api/scripts/execute', { code }),
  });
