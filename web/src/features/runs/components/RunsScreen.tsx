import { Alert, Button, Card, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { RunSummary } from '@moonrelay/contract/runs';
import { messageOf } from '../../../lib/api-client.ts';
import { useRuns } from '../api/runs.ts';
import { filtersFromParams } from '../run-filters.ts';
import { RUNS_TEXT } from '../run-text.ts';
import { hasFilters, RunFiltersBar, type FilterChange } from './RunFiltersBar.tsx';
import { RunDetailDrawer } from './RunDetailDrawer.tsx';
import { RunsTable } from './RunsTable.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { useTeam } from '../../../lib/team.ts';
import { useTeamDetails } from '../../../lib/team-details.ts';

const NO_PEOPLE: readonly { userId: string; username: string }[] = [];

interface Props {
  /** The user's scripts, for the script filter (the scripts feature's list, handed over by the page). */
  scripts: readonly { id: string; name: string }[];
}

/**
 * The Runs page: the user's run history, newest first, filtered by what the address says; a run
 * opens in a drawer (?id=). Rows change in place as runs finish (useRunsLiveEvents).
 */
export function RunsScreen({ scripts }: Props) {
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('id');
  // The filters (not the open run) decide the list; a preset time range counts back from when it was chosen.
  const filterKey = useMemo(() => {
    const only = new URLSearchParams(params);
    only.delete('id');
    return only.toString();
  }, [params]);
  const filters = useMemo(() => filtersFromParams(new URLSearchParams(filterKey), Date.now()), [filterKey]);
  const runs = useRuns(filters);
  // On a team, runs can be listed by who started them; on one's own account every run is theirs.
  const teamId = useTeam((state) => state.teamId);
  const team = useTeamDetails(teamId);
  const people = team.data?.memberList ?? NO_PEOPLE;
  const list = useMemo(() => runs.data?.pages.flatMap((page) => page.runs) ?? [], [runs.data]);

  // Each change builds on the one before even when no render came between them (a quick user, a
  // busy machine): React Router's updater gets the params of the last render, which would drop
  // the first of two changes.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = (change: FilterChange) => {
    const next = new URLSearchParams(latest.current);
    for (const [name, value] of Object.entries(change)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    latest.current = next;
    setParams(next);
  };
  const hrefOf = (run: RunSummary) => {
    const next = new URLSearchParams(params);
    next.set('id', run.id);
    return `?${next.toString()}`;
  };
  const filtered = hasFilters(new URLSearchParams(filterKey));
  const { fetchNextPage } = runs;
  const loadNext = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="4">
        <Stack gap="1">
          <PageHeading>{RUNS_TEXT.title}</PageHeading>
          <Text color="fg.muted">{RUNS_TEXT.subtitle}</Text>
        </Stack>
      </Flex>

      <Card.Root size={{ base: 'sm', md: 'md' }}>
        <Card.Header>
          <RunFiltersBar scripts={scripts} people={people} params={params} onChange={update} />
        </Card.Header>
        <Card.Body>
          {runs.isPending ? (
            <Center py="10" gap="2" color="fg.muted">
              <Spinner size="sm" /> {RUNS_TEXT.loading}
            </Center>
          ) : runs.isError && !runs.data ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{RUNS_TEXT.loadFailed}</Alert.Title>
                <Alert.Description>{messageOf(runs.error, runs.error.message)}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <Stack gap="4">
              <RunsTable
                runs={list}
                emptyText={filtered ? RUNS_TEXT.emptyFiltered : RUNS_TEXT.empty}
                selectedId={selectedId}
                more={runs.hasNextPage}
                // Not while a refresh of the loaded pages is on its way (asked again once it has
                // come), nor again by itself after a page failed to come: the button asks again.
                loadAhead={!runs.isFetching && !runs.isFetchNextPageError}
                onNeedMore={loadNext}
                hrefOf={hrefOf}
                onSelect={(run) => update({ id: run.id })}
              />
              {/* Scrolling loads the next page by itself; the button is the keyboard's way, and a retry. */}
              {runs.hasNextPage && (
                <Center>
                  <Button
                    variant="outline"
                    size="sm"
                    loading={runs.isFetchingNextPage}
                    onClick={() => void runs.fetchNextPage()}
                  >
                    {RUNS_TEXT.loadMore}
                  </Button>
                </Center>
              )}
            </Stack>
          )}
        </Card.Body>
      </Card.Root>

      <RunDetailDrawer
        runId={selectedId}
        onClose={() => update({ id: null })}
        onRunStarted={(executionId) => update({ id: executionId })}
      />
    </Stack>
  );
}
