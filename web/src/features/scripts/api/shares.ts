import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { Script } from '@moonrelay/contract/scripts';
import type { CreatedScriptShare, ScriptShareList, SharedScript } from '@moonrelay/contract/shares';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { scriptsQuery } from './scripts.ts';

const encoded = encodeURIComponent;

/** The share links of the team's scripts (or the person's own), newest first. */
export const sharesQuery = () =>
  queryOptions({
    queryKey: ['/api/shares'],
    queryFn: () => apiRequest<ScriptShareList>('GET', '/api/shares'),
  });

/** `enabled`: false where the member's role may not read scripts (the server would refuse). */
export function useShares(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...sharesQuery(), enabled: Boolean(token) && enabled });
}

const refreshShares = () => queryClient.invalidateQueries({ queryKey: sharesQuery().queryKey });

/** Makes a link to a script; the answer carries its token, which nothing can show again. */
export const useCreateShare = () =>
  useMutation({
    mutationFn: (scriptId: string) =>
      apiRequest<CreatedScriptShare>('POST', `/api/scripts/${encoded(scriptId)}/shares`),
    onSuccess: refreshShares,
  });

/** Stops a link: it answers 404 from then on. Its row goes at once, before the list is read again. */
export const useStopSharing = () =>
  useMutation({
    mutationFn: (shareId: string) => apiRequest<SuccessResponse>('DELETE', `/api/shares/${encoded(shareId)}`),
    onSuccess: (_answer, shareId) =>
      queryClient.setQueryData(sharesQuery().queryKey, (list) =>
        list ? { items: list.items.filter((share) => share.id !== shareId) } : list,
      ),
    onSettled: refreshShares,
  });

/**
 * A shared script as its link shows it, signed in or not. Read again each time the page opens:
 * the link shows the script as it is now, and its owner may have changed it or stopped the link.
 */
export const sharedScriptQuery = (token: string) =>
  queryOptions({
    queryKey: ['/api/shared', token],
    queryFn: () => apiRequest<SharedScript>('GET', `/api/shared/${encoded(token)}`),
    staleTime: 0,
  });

export const useSharedScript = (token: string) => useQuery(sharedScriptQuery(token));

/**
 * Copies a shared script into the team the dashboard acts on. The copy joins the scripts already
 * read, so the editor finds it at once; the list is read again behind it.
 */
export const useCopySharedScript = () =>
  useMutation({
    mutationFn: (token: string) => apiRequest<Script>('POST', `/api/shared/${encoded(token)}/copy`),
    onSuccess: (copy) => {
      queryClient.setQueryData(scriptsQuery().queryKey, (list) =>
        list && !list.some((known) => known.id === copy.id) ? [copy, ...list] : list,
      );
      void queryClient.invalidateQueries({ queryKey: scriptsQuery().queryKey });
    },
  });

/** Copies a script of the team the dashboard acts on into another of the person's teams. */
export const useCopyToTeam = () =>
  useMutation({
    mutationFn: ({ scriptId, teamId }: { scriptId: string; teamId: string }) =>
      apiRequest<Script>('POST', `/api/scripts/${encoded(scriptId)}/copy`, { teamId }),
  });
