import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ScriptVersion, ScriptVersionList } from '@moonrelay/contract/script-versions';
import type { Script } from '@moonrelay/contract/scripts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { scriptsQuery } from './scripts.ts';

const base = (scriptId: string) => `/api/scripts/${encodeURIComponent(scriptId)}/versions`;

/**
 * A script's versions, newest first (GET /api/scripts/{id}/versions), keyed by its current version:
 * fetched again whenever a save or a restore moves it.
 */
export const scriptVersionsQuery = (scriptId: string, currentVersion: number) =>
  queryOptions({
    queryKey: [base(scriptId), 'list', currentVersion],
    queryFn: () => apiRequest<ScriptVersionList>('GET', base(scriptId)),
  });

export const useScriptVersions = (scriptId: string, currentVersion: number) =>
  useQuery(scriptVersionsQuery(scriptId, currentVersion));

/** One version in full; versions never change, so one fetched is kept. */
export const useScriptVersion = (scriptId: string, number: number | null) =>
  useQuery({
    queryKey: [base(scriptId), 'version', number],
    queryFn: () => apiRequest<ScriptVersion>('GET', `${base(scriptId)}/${number}`),
    enabled: number !== null,
    staleTime: Infinity,
  });

export const useRestoreVersion = () =>
  useMutation({
    mutationFn: ({ scriptId, number }: { scriptId: string; number: number }) =>
      apiRequest<Script>('POST', `${base(scriptId)}/${number}/restore`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scriptsQuery().queryKey }),
  });
