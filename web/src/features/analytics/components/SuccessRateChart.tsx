import { Chart, useChart } from '@chakra-ui/charts';
import { HStack, Stack, Text } from '@chakra-ui/react';
import { Cell, Label, Pie, PieChart, Tooltip } from 'recharts';
import type { ScriptAnalytics } from '@moonrelay/contract/analytics';
import { outcomeSlices } from '../chart-data.ts';

/** How the runs ended, as a ring with the success rate in its middle. */
export function SuccessRateChart({ stats }: { stats: ScriptAnalytics }) {
  const chart = useChart({ data: outcomeSlices(stats.outcomes) });
  const rate = stats.successRate === null ? '—' : `${stats.successRate}%`;
  return (
    <Stack gap="4" align="center">
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
            <Label
              content={({ viewBox }) => <Chart.RadialText viewBox={viewBox} title={rate} description="succeeded" />}
            />
            {chart.data.map((item) => (
              <Cell key={item.name} fill={chart.color(item.color)} strokeWidth={0} />
            ))}
          </Pie>
        </PieChart>
      </Chart.Root>
      <HStack gap="4" wrap="wrap" justify="center" as="ul" listStyleType="none" aria-label="Outcomes">
        {chart.data.map((item) => (
          <HStack as="li" key={item.name} gap="1.5">
            <span
              aria-hidden
              style={{ width: 10, height: 10, borderRadius: 2, background: chart.color(item.color) as string }}
            />
            <Text fontSize="xs" color="fg.muted">
              {item.name} {item.value.toLocaleString('en')}
            </Text>
          </HStack>
        ))}
      </HStack>
    </Stack>
  );
}
