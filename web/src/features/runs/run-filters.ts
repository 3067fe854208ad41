import type { ExecutionTarget } from '@moonrelay/contract/executions';
import type { RunStatusFilter, RunSummary } from '@moonrelay/contract/runs';

/**
 * The Runs page's filters, kept in the address (?script=&by=&target=&status=&server=&range=&from=&to=)
 * so a filtered view can be reloaded and shared. A time range is a preset (the last hour, day, week
 * or 30 days, counted from when it was chosen) or custom `from` / `to` times.
 */
export type TimeRange = 'any' | '1h' | '24h' | '7d' | '30d' | 'custom';

export interface RunFilters {
  scriptId?: string;
  /** A team member's user id: the runs they started. */
  actorId?: string;
  target?: ExecutionTarget;
  serverId?: string;
  status?: RunStatusFilter;
  /** ISO 8601 UTC: runs at or after. */
  from?: string;
  /** ISO 8601 UTC: runs before. */
  to?: string;
}

export const TARGET_OPTIONS: { value: ExecutionTarget; label: string }[] = [
  { value: 'game', label: 'Game' },
  { value: 'sandbox', label: 'Sandbox' },
  { value: 'dry-run', label: 'Dry run' },
  { value: 'cloud', label: 'Roblox' },
];

export const STATUS_OPTIONS: { value: RunStatusFilter; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'succeeded', label: 'Succeeded' },
  { value: 'failed', label: 'Failed' },
  { value: 'limit', label: 'Stopped by a limit' },
  { value: 'not_connected', label: 'Not connected' },
];

const HOUR_MS = 60 * 60 * 1000;
export const RANGE_OPTIONS: { value: TimeRange; label: string; ms?: number }[] = [
  { value: 'any', label: 'Any time' },
  { value: '1h', label: 'Last hour', ms: HOUR_MS },
  { value: '24h', label: 'Last 24 hours', ms: 24 * HOUR_MS },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * HOUR_MS },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * HOUR_MS },
  { value: 'custom', label: 'Custom range' },
];

const isTarget = (value: string | null): value is ExecutionTarget =>
  TARGET_OPTIONS.some((option) => option.value === value);
const isStatus = (value: string | null): value is RunStatusFilter =>
  STATUS_OPTIONS.some((option) => option.value === value);
export const isTimeRange = (value: string | null): value is TimeRange =>
  RANGE_OPTIONS.some((option) => option.value === value);

/** A time the browser's datetime-local input gave (local time), as ISO 8601 UTC; undefined if empty or invalid. */
export function localInputToIso(value: string | null): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The filters the address asks for; a preset range counts back from `now`. */
export function filtersFromParams(params: URLSearchParams, now: number): RunFilters {
  const filters: RunFilters = {};
  const script = params.get('script');
  if (script) filters.scriptId = script;
  const by = params.get('by');
  if (by) filters.actorId = by;
  const target = params.get('target');
  if (isTarget(target)) filters.target = target;
  const status = params.get('status');
  if (isStatus(status)) filters.status = status;
  const server = params.get('server')?.trim();
  if (server) filters.serverId = server;
  const range = params.get('range');
  const preset = RANGE_OPTIONS.find((option) => option.value === range);
  if (preset?.ms) filters.from = new Date(now - preset.ms).toISOString();
  if (range === 'custom') {
    const from = localInputToIso(params.get('from'));
    const to = localInputToIso(params.get('to'));
    if (from) filters.from = from;
    if (to) filters.to = to;
  }
  return filters;
}

/** The query string of GET /api/executions for these filters (and a page's cursor). */
export function runsQueryString(filters: RunFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.scriptId) query.set('scriptId', filters.scriptId);
  if (filters.actorId) query.set('actorId', filters.actorId);
  if (filters.target) query.set('target', filters.target);
  if (filters.serverId) query.set('serverId', filters.serverId);
  if (filters.status) query.set('status', filters.status);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Whether a run belongs in a list with these filters (the server's rules, for runs pushed live). */
export function matchesFilters(run: RunSummary, filters: RunFilters): boolean {
  if (filters.scriptId && run.scriptId !== filters.scriptId) return false;
  if (filters.actorId && run.actorId !== filters.actorId) return false;
  if (filters.target && run.target !== filters.target) return false;
  if (filters.serverId && run.serverId !== filters.serverId) return false;
  if (filters.status === 'limit' && run.limitHit === null) return false;
  if (filters.status && filters.status !== 'limit' && run.status !== filters.status) return false;
  if (filters.from && run.createdAt < filters.from) return false;
  if (filters.to && run.createdAt >= filters.to) return false;
  return true;
}
