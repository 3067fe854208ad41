import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { EndedSessions, SessionList } from '@moonrelay/contract/sessions';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Every signed-in browser and device of the account; `current` is this one. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: ['/api/user/sessions'],
    queryFn: () => apiRequest<SessionList>('GET', '/api/user/sessions'),
  });

export function useSessions() {
  return useQuery(sessionsQuery());
}

export const refreshSessions = () => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey });

/** Signs one session out; its sockets close at once (the server's doing). */
export function useEndSession() {
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest<EndedSessions>('DELETE', `/api/user/sessions/${encodeURIComponent(sessionId)}`),
    onSettled: refreshSessions,
  });
}

export function useEndOtherSessions() {
  return useMutation({
    mutationFn: () => apiRequest<EndedSessions>('POST', '/api/user/sessions/end-others'),
    onSettled: refreshSessions,
  });
}
