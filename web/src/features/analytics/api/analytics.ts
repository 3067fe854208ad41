import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPeriod, ScriptAnalytics, UsageAnalytics } from '@moonrelay/contract/analytics';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';

/** Requests of the signed-in user over a period (GET /api/analytics/usage). */
export const usageQuery = (period: AnalyticsPeriod) =>
  queryOptions({
    queryKey: ['/api/analytics/usage', period],
    queryFn: () => apiRequest<UsageAnalytics>('GET', `/api/analytics/usage?period=${period}`),
  });

/** Script runs of the signed-in user over a period (GET /api/analytics/scripts). */
export const scriptStatsQuery = (period: AnalyticsPeriod) =>
  queryOptions({
    queryKey: ['/api/analytics/scripts', period],
    queryFn: () => apiRequest<ScriptAnalytics>('GET', `/api/analytics/scripts?period=${period}`),
  });

// The numbers move with every request, so unlike the rest of the app they are fetched again each
// time the screen opens (and on Refresh), rather than kept from the first visit. `enabled`: false
// where the member's role may not read the team's scripts (scripts.read, what both endpoints ask).
export function useUsage(period: AnalyticsPeriod, enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...usageQuery(period), enabled: Boolean(token) && enabled, refetchOnMount: 'always' });
}

export function useScriptStats(period: AnalyticsPeriod, enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...scriptStatsQuery(period), enabled: Boolean(token) && enabled, refetchOnMount: 'always' });
}
