import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  CreateScheduleRequest,
  Schedule,
  ScheduleList,
  SchedulePreview,
  ScheduleTiming,
  UpdateScheduleRequest,
} from '@moonrelay/contract/schedules';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';

/** One saved script's schedules. */
export const schedulesQuery = (scriptId: string) =>
  queryOptions({
    queryKey: ['/api/scripts', scriptId, 'schedules'],
    queryFn: () =>
      apiRequest<ScheduleList>('GET', `/api/scripts/${encodeURIComponent(scriptId)}/schedules`).then(
        (list) => list.schedules,
      ),
  });

/** `enabled`: false where the member's role may not read the script's schedules (the server would refuse). */
export function useSchedules(scriptId: string, enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...schedulesQuery(scriptId), enabled: Boolean(token) && enabled });
}

const refresh = (scriptId: string) => queryClient.invalidateQueries({ queryKey: schedulesQuery(scriptId).queryKey });

export const useCreateSchedule = (scriptId: string) =>
  useMutation({
    mutationFn: (input: CreateScheduleRequest) =>
      apiRequest<Schedule>('POST', `/api/scripts/${encodeURIComponent(scriptId)}/schedules`, input),
    onSuccess: () => refresh(scriptId),
  });

export const useUpdateSchedule = (scriptId: string) =>
  useMutation({
    mutationFn: ({ id, ...update }: UpdateScheduleRequest & { id: string }) =>
      apiRequest<Schedule>('PUT', `/api/schedules/${encodeURIComponent(id)}`, update),
    onSuccess: () => refresh(scriptId),
  });

export const useDeleteSchedule = (scriptId: string) =>
  useMutation({
    mutationFn: (id: string) => apiRequest<{ success: true }>('DELETE', `/api/schedules/${encodeURIComponent(id)}`),
    onSuccess: () => refresh(scriptId),
  });

/**
 * The next run times of a timing as the server computes them (it is the judge of what is valid);
 * null while there is nothing to ask about. The last answer stays shown while the next one loads.
 */
export function useSchedulePreview(timing: ScheduleTiming | null) {
  return useQuery({
    queryKey: ['/api/schedules/preview', timing],
    queryFn: () => apiRequest<SchedulePreview>('POST', '/api/schedules/preview', timing),
    enabled: timing !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A schedule's runs, skips and errors arrive as `schedule:updated`: its script's list is fetched again. */
export function useScheduleLiveEvents(scriptId: string): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!token) return;
    const socket = liveSocketFor(token);
    const onUpdated = (event: { scriptId: string }) => {
      if (event.scriptId === scriptId) void refresh(scriptId);
    };
    const onConnect = () => void refresh(scriptId);
    socket.on('schedule:updated', onUpdated);
    socket.on('connect', onConnect);
    return () => {
      socket.off('schedule:updated', onUpdated);
      socket.off('connect', onConnect);
    };
  }, [token, scriptId]);
}
