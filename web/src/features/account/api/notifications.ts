import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type {
  CreatedNotificationDestination,
  CreateNotificationDestinationRequest,
  NotificationAttemptList,
  NotificationDestination,
  NotificationDestinationList,
  QueuedNotification,
  UpdateNotificationDestinationRequest,
} from '@moonrelay/contract/notifications';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** How often the list is read again, so a destination paused by a failed delivery shows up. */
const REFRESH_MS = 5_000;

const path = (id: string) => `/api/notifications/destinations/${encodeURIComponent(id)}`;

export const destinationsQuery = () =>
  queryOptions({
    queryKey: ['/api/notifications/destinations'],
    queryFn: () => apiRequest<NotificationDestinationList>('GET', '/api/notifications/destinations'),
    refetchInterval: REFRESH_MS,
  });

export const attemptsQuery = (id: string) =>
  queryOptions({
    queryKey: ['/api/notifications/destinations', id, 'attempts'],
    queryFn: () => apiRequest<NotificationAttemptList>('GET', `${path(id)}/attempts`),
    refetchInterval: 3_000,
  });

/** `enabled`: false where the member's role may not manage notifications (the server would refuse). */
export function useDestinations(enabled = true) {
  return useQuery({ ...destinationsQuery(), enabled });
}

export function useAttempts(id: string) {
  return useQuery(attemptsQuery(id));
}

const refresh = () => queryClient.invalidateQueries({ queryKey: destinationsQuery().queryKey });

export function useCreateDestination() {
  return useMutation({
    mutationFn: (request: CreateNotificationDestinationRequest) =>
      apiRequest<CreatedNotificationDestination>('POST', '/api/notifications/destinations', request),
    onSuccess: refresh,
  });
}

export function useUpdateDestination() {
  return useMutation({
    mutationFn: ({ id, ...request }: UpdateNotificationDestinationRequest & { id: string }) =>
      apiRequest<NotificationDestination>('PUT', path(id), request),
    onSuccess: refresh,
  });
}

export function useDeleteDestination() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<SuccessResponse>('DELETE', path(id)),
    onSuccess: refresh,
  });
}

export function useSendTest() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<QueuedNotification>('POST', `${path(id)}/test`),
    onSuccess: refresh,
  });
}

export function useRedeliver() {
  return useMutation({
    mutationFn: ({ id, eventId }: { id: string; eventId: string }) =>
      apiRequest<QueuedNotification>('POST', `${path(id)}/events/${encodeURIComponent(eventId)}/redeliver`),
  });
}
