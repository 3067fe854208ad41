import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  CataloguePage,
  CatalogueScript,
  CatalogueSource,
  TempScriptResponse,
} from '@moonrelay/contract/catalogue';
import { CATALOGUE_PAGE_SIZE } from '@moonrelay/contract/constants';
import type { Script } from '@moonrelay/contract/scripts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ExecutionResult } from '../../../lib/execution-result.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { importRequest, needsLoader } from '../import-script.ts';

/** What the screen shows: a page of the newest scripts, the trending ones, or a page of a search. */
export type CatalogueView =
  { tab: 'home'; page: number } | { tab: 'trending'; page: number } | { tab: 'search'; page: number; q: string };

/** A view's query key and the proxy path it reads. */
function pageRequest(view: CatalogueView): { key: (string | number)[]; path: string } {
  const params = `page=${view.page}&max=${CATALOGUE_PAGE_SIZE}`;
  if (view.tab === 'trending') return { key: ['/api/scriptblox/trending'], path: '/api/scriptblox/trending' };
  if (view.tab === 'search') {
    return {
      key: ['/api/scriptblox/search', view.q, view.page],
      path: `/api/scriptblox/search?q=${encodeURIComponent(view.q)}&${params}`,
    };
  }
  return { key: ['/api/scriptblox/fetch', view.page], path: `/api/scriptblox/fetch?${params}` };
}

/**
 * One page of the catalogue through Moonrelay's proxy (spec section 7). Trending is one page; its
 * key has no page number, so paging on that tab shows the same answer.
 */
export function cataloguePageQuery(view: CatalogueView) {
  const { key, path } = pageRequest(view);
  return queryOptions({ queryKey: key, queryFn: () => apiRequest<CataloguePage>('GET', path) });
}

/** The search tab asks for nothing until there is a term (spec section 5). */
export function useCataloguePage(view: CatalogueView) {
  const token = useSession((state) => state.token);
  const enabled = Boolean(token) && (view.tab !== 'search' || view.q !== '');
  return useQuery({ ...cataloguePageQuery(view), enabled });
}

/** One script's source, with the executor-only functions it calls (the preview, execute and import read it). */
export const catalogueSourceQuery = (id: string) =>
  queryOptions({
    queryKey: ['/api/scriptblox/script', id],
    queryFn: () => apiRequest<CatalogueSource>('GET', `/api/scriptblox/script/${encodeURIComponent(id)}`),
  });

export function useCatalogueSource(id: string | null) {
  return useQuery({ ...catalogueSourceQuery(id ?? ''), enabled: id !== null });
}

/**
 * The code to send or save: the source itself, or for a long one (over 10 000 characters) the
 * one-line loader of a temporary script (POST /api/scripts/temp).
 */
async function codeForGame(id: string): Promise<{ code: string; viaLoader: boolean }> {
  const source = await queryClient.fetchQuery(catalogueSourceQuery(id));
  if (!needsLoader(source.code)) return { code: source.code, viaLoader: false };
  const temp = await apiRequest<TempScriptResponse>('POST', '/api/scripts/temp', { script: source.code });
  return { code: temp.loadstring, viaLoader: true };
}

/** The scripts feature's list (its query key is its GET path): an import adds to it. */
const SCRIPTS_QUERY_KEY = ['/api/scripts'] as const;

/** Runs a catalogue script in the connected game through POST /api/scripts/execute. */
export const useExecuteCatalogueScript = () =>
  useMutation({
    mutationFn: async (script: CatalogueScript) => {
      const { code } = await codeForGame(script._id);
      return apiRequest<ExecutionResult>('POST', '/api/scripts/execute', { code }, { idempotent: true });
    },
  });

/** Imports a catalogue script into My Scripts: 'Save' (manual) or 'Save to Auto-Execute'. */
export const useImportCatalogueScript = () =>
  useMutation({
    mutationFn: async ({ script, autoExecute }: { script: CatalogueScript; autoExecute: boolean }) => {
      const { code, viaLoader } = await codeForGame(script._id);
      return apiRequest<Script>('POST', '/api/scripts', importRequest(script, code, { autoExecute, viaLoader }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCRIPTS_QUERY_KEY }),
  });
