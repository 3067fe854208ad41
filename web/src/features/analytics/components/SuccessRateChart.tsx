import { Chart, useChart } from '@chakra-ui/charts';
import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import { Cell, Pie, PieChart, Tooltip } from 'recharts';
import type { ScriptAnalytics } from '@moonrelay/contract/analytics';
import { outcomeSlices } from '../chart-data.ts';

const percent = (share: number) => `${share.toLocaleString('en', { maximumFractionDigits: 1 })}%`;

/**
 * How the runs ended, as a ring of every run with the succeeded share in its middle. The middle and
 * the legend's shares come from the same slices (outcomeShares), so they add up to 100% and match
 * the ring: a run with no game connected, or still waiting for one, is a slice of its own, never
 * counted as a success.
 */
export function SuccessRateChart({ stats }: { stats: ScriptAnalytics }) {
  const chart = useChart({ data: outcomeSlices(stats.outcomes) });
  const succeeded = chart.data.find((slice) => slice.key === 'succeeded');
  const rate = chart.data.length === 0 ? '—' : percent(succeeded?.share ?? 0);
  return (
    <Stack gap="4" align="center">
      <Box position="relative">
        <Chart.Root chart={chart} boxSize="52" aspectRatio="square" data-testid="success-rate-chart">
          <PieChart responsive>
            <Tooltip cursor={false} animationDuration={100} content={<Chart.Tooltip hideLabel />} />
            <Pie
              data={chart.data}
              dataKey={chart.key('value')}
              nameKey="name"
              innerRadius="62%"
              outerRadius="100%"
              paddingAngle={chart.data.length > 1 ? 2 : 0}
              isAnimationActive={false}
            >
              {chart.data.map((item) => (
                <Cell key={item.name} fill={chart.color(item.color)} strokeWidth={0} />
              ))}
            </Pie>
          </PieChart>
        </Chart.Root>
        {/* Over the ring's hole, in the page's text rather than the SVG's, so it reads like the legend. */}
        <Stack
          position="absolute"
          inset="0"
          align="center"
          justify="center"
          gap="0"
          pointerEvents="none"
          data-testid="success-rate-middle"
        >
          <Text fontSize="2xl" fontWeight="semibold" lineHeight="short">
            {rate}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            succeeded
          </Text>
        </Stack>
      </Box>
      <HStack gap="4" wrap="wrap" justify="center" as="ul" listStyleType="none" aria-label="Outcomes">
        {chart.data.map((item) => (
          <HStack as="li" key={item.name} gap="1.5">
            <span
              aria-hidden
              style={{ width: 10, height: 10, borderRadius: 2, background: chart.color(item.color) as string }}
            />
            <Text fontSize="xs" color="fg.muted">
              {item.name} {item.value.toLocaleString('en')} ({percent(item.share)})
            </Text>
          </HStack>
        ))}
      </HStack>
    </Stack>
  );
}
