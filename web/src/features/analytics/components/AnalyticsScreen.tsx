import { Alert, Box, Button, Flex, HStack, SegmentGroup, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { lazy, useDeferredValue, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  ANALYTICS_PERIODS,
  AnalyticsPeriodSchema,
  DEFAULT_ANALYTICS_PERIOD,
  type AnalyticsPeriod,
} from '@moonrelay/contract/analytics';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { useScriptStats, useUsage } from '../api/analytics.ts';
import { ChartCard } from './ChartCard.tsx';
import { StatCards } from './StatCards.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';

const charts = () => import('./charts.ts');
const ExecutionsChart = lazy(() => charts().then((m) => ({ default: m.ExecutionsChart })));
const RankedBars = lazy(() => charts().then((m) => ({ default: m.RankedBars })));
const RequestsChart = lazy(() => charts().then((m) => ({ default: m.RequestsChart })));
const SuccessRateChart = lazy(() => charts().then((m) => ({ default: m.SuccessRateChart })));

const PERIOD_ITEMS = Object.entries(ANALYTICS_PERIODS).map(([value, { label }]) => ({ value, label }));
const LOADING = 'Loading...';
/** The note's name for the screen, where the member's role does not allow it. */
const SEE_ANALYTICS = 'See the analytics';

/**
 * Usage and script analytics (spec sections 3 and 7): executions over time, how runs ended, the
 * busiest scripts, and API requests by endpoint and over time, for a period kept in the URL.
 */
export function AnalyticsScreen() {
  const [search, setSearch] = useSearchParams();
  const parsed = AnalyticsPeriodSchema.safeParse(search.get('period'));
  const period: AnalyticsPeriod = parsed.success ? parsed.data : DEFAULT_ANALYTICS_PERIOD;
  // The charts' chunk is fetched once the screen is up, beside the numbers they draw. A failed
  // fetch is the charts' own to report when they render (lazy tries again then).
  useEffect(() => void charts().catch(() => undefined), []);
  // Not asked for where the member's role may not read the team's scripts: the screen says why.
  const read = useCan('scripts.read');
  const usage = useUsage(period, read.allowed);
  const stats = useScriptStats(period, read.allowed);
  // The charts are a large render: each answer is drawn in a deferred (interruptible) render, so
  // its arrival never holds the main thread in one long task.
  const usageData = useDeferredValue(usage.data);
  const statsData = useDeferredValue(stats.data);
  const failure = usage.error ?? stats.error;
  const refreshing = usage.isFetching || stats.isFetching;

  const endpoints = Object.entries(usageData?.requestsByEndpoint ?? {}).map(([name, value]) => ({ name, value }));
  const scripts = (statsData?.executionsByScript ?? []).map((row) => ({ name: row.name, value: row.executions }));
  const anyOutcome = Object.values(statsData?.outcomes ?? {}).some((count) => count > 0);

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="4">
        <Box>
          <PageHeading>Analytics</PageHeading>
          <Text color="fg.muted">How your scripts run and how you use the API.</Text>
        </Box>
        <HStack gap="3" wrap="wrap" maxW="full">
          {/* On a phone the periods scroll sideways inside their own strip, not the page. */}
          <Box maxW="full" overflowX="auto">
            <SegmentGroup.Root
              size="sm"
              value={period}
              onValueChange={({ value }) =>
                value && setSearch(value === DEFAULT_ANALYTICS_PERIOD ? {} : { period: value })
              }
              aria-label="Period"
            >
              <SegmentGroup.Indicator />
              <SegmentGroup.Items items={PERIOD_ITEMS} />
            </SegmentGroup.Root>
          </Box>
          <Button
            size="sm"
            variant="outline"
            loading={refreshing}
            disabled={!read.allowed}
            onClick={() => void Promise.all([usage.refetch(), stats.refetch()])}
          >
            <RefreshCw /> Refresh
          </Button>
        </HStack>
      </Flex>

      {!read.allowed ? (
        <PermissionNotes notes={[{ action: SEE_ANALYTICS, can: read }]} />
      ) : (
        <>
          {failure && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Analytics could not be loaded.</Alert.Title>
                <Alert.Description>{messageOf(failure, 'Please try again.')}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}

          <StatCards usage={usageData} stats={statsData} />

          <SimpleGrid columns={{ base: 1, xl: 3 }} gap="4">
            <Box gridColumn={{ xl: 'span 2' }} minW="0">
              <ChartCard
                title="Executions over time"
                description="Every run, in the sandbox, as a dry run or on your game, by how it ended."
                empty={!statsData ? LOADING : statsData.totalExecutions === 0 && 'No script runs in this period.'}
              >
                {statsData && <ExecutionsChart buckets={statsData.executionsOverTime} period={period} />}
              </ChartCard>
            </Box>
            <ChartCard
              title="Success rate"
              description="The share of all runs that succeeded, and how the others ended."
              empty={!statsData ? LOADING : !anyOutcome && 'No script runs in this period.'}
            >
              {statsData && <SuccessRateChart stats={statsData} />}
            </ChartCard>
          </SimpleGrid>

          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
            <ChartCard
              title="Busiest scripts"
              description="Runs per saved script, whatever the target; code that differs from a saved script counts as Custom code."
              empty={!statsData ? LOADING : scripts.length === 0 && 'No script runs in this period.'}
            >
              <RankedBars items={scripts} color="teal.subtle" testId="busiest-scripts" />
            </ChartCard>
            <ChartCard
              title="Requests by endpoint"
              description="API calls with your session or API key, by route."
              empty={!usageData ? LOADING : endpoints.length === 0 && 'No API requests in this period.'}
            >
              <RankedBars items={endpoints} color="purple.subtle" testId="requests-by-endpoint" />
            </ChartCard>
          </SimpleGrid>

          <ChartCard
            title="Request volume"
            description="API calls over the period, and how many answered with an error."
            empty={!usageData ? LOADING : usageData.totalRequests === 0 && 'No API requests in this period.'}
          >
            {usageData && <RequestsChart buckets={usageData.requestsOverTime} period={period} />}
          </ChartCard>
        </>
      )}
    </Stack>
  );
}
