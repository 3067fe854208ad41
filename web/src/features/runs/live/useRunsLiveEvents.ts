import { useEffect } from 'react';
import type { InfiniteData } from '@tanstack/react-query';
import type { ExecutionUpdatedEvent } from '@moonrelay/contract/events';
import type { RunPage, RunSummary } from '@moonrelay/contract/runs';
import { queryClient } from '../../../lib/query-client.ts';
import { onCloudLogs } from '../../../lib/run-detail.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';
import { allRunsKey, runListsKey, runQuery } from '../api/runs.ts';
import { matchesFilters, type RunFilters } from '../run-filters.ts';

type RunPages = InfiniteData<RunPage, string | undefined>;

/** Newest first: by time, then by id, as the server orders runs. */
const isNewer = (a: RunSummary, b: RunSummary) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/**
 * One run, recorded or changed, applied to a list already fetched with `filters`: a row it shows
 * is replaced in place; a run it does not show yet is added where it belongs among the loaded rows
 * when the filters take it (a run older than every loaded row waits for its page to load).
 */
export function applyRunUpdate(pages: RunPages, filters: RunFilters, run: RunSummary): RunPages {
  if (pages.pages.some((page) => page.runs.some((known) => known.id === run.id))) {
    return {
      ...pages,
      pages: pages.pages.map((page) => ({
        ...page,
        runs: page.runs.map((known) => (known.id === run.id ? run : known)),
      })),
    };
  }
  if (!matchesFilters(run, filters)) return pages;
  const loaded = pages.pages.flatMap((page, pageIndex) =>
    page.runs.map((known, index) => ({ known, pageIndex, index })),
  );
  const before = loaded.find(({ known }) => isNewer(run, known));
  const last = pages.pages.at(-1);
  if (!before && last?.nextCursor) return pages;
  const pageIndex = before?.pageIndex ?? pages.pages.length - 1;
  return {
    ...pages,
    pages: pages.pages.map((page, index) => {
      if (index !== pageIndex) return page;
      const at = before?.index ?? page.runs.length;
      return { ...page, runs: [...page.runs.slice(0, at), run, ...page.runs.slice(at)] };
    }),
  };
}

/** The scripts feature's list (its query key is its GET path), which carries each script's executionCount. */
const SCRIPTS_QUERY_KEY = ['/api/scripts'] as const;
/** My Scripts' pages (GET /api/scripts/page), which carry the counts too. */
const SCRIPT_PAGES_KEY = ['/api/scripts', 'page'] as const;

/**
 * `execution:updated`: every cached list takes the run, and its full record is fetched again if
 * shown. A run of a saved script also moves that script's count (My Scripts, the dashboard's Total
 * Executions), whoever started it: a schedule, the game, another tab. A fetch already on its way
 * answers for the burst rather than being restarted by each event.
 */
export function onExecutionUpdated({ run }: ExecutionUpdatedEvent): void {
  for (const [queryKey, pages] of queryClient.getQueriesData<RunPages>({ queryKey: runListsKey })) {
    if (!pages) continue;
    const filters = (queryKey[2] ?? {}) as RunFilters;
    const next = applyRunUpdate(pages, filters, run);
    if (next !== pages) queryClient.setQueryData(queryKey, next);
  }
  void queryClient.invalidateQueries({ queryKey: runQuery(run.id).queryKey });
  if (run.scriptId !== null) {
    void queryClient.invalidateQueries({ queryKey: SCRIPTS_QUERY_KEY, exact: true }, { cancelRefetch: false });
    void queryClient.invalidateQueries({ queryKey: SCRIPT_PAGES_KEY }, { cancelRefetch: false });
  }
}

/** Runs recorded while the socket was down were not told: what is cached is fetched again. */
function onConnect(): void {
  void queryClient.invalidateQueries({ queryKey: allRunsKey });
}

/**
 * Keeps the run history current from the live socket (mounted once, in the signed-in app): the
 * lists and runs from `execution:updated`, a cloud run's lines and state from `execution:logs`
 * (wherever it is shown: the Runs page or the editor that started it).
 */
export function useRunsLiveEvents(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!token) return;
    const socket = liveSocketFor(token);
    socket.on('connect', onConnect);
    socket.on('execution:updated', onExecutionUpdated);
    socket.on('execution:logs', onCloudLogs);
    return () => {
      socket.off('connect', onConnect);
      socket.off('execution:updated', onExecutionUpdated);
      socket.off('execution:logs', onCloudLogs);
    };
  }, [token]);
}
