import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsPeriod, ExecutionBucket } from '@moonrelay/contract/analytics';
import { executionSeries } from '../chart-data.ts';

/** Runs per bucket, stacked by how they ended: the stack's height is every run of the bucket. */
export function ExecutionsChart({ buckets, period }: { buckets: ExecutionBucket[]; period: AnalyticsPeriod }) {
  const chart = useChart({
    data: executionSeries(buckets, period),
    series: [
      { name: 'succeeded', label: 'Succeeded', color: 'green.solid', stackId: 'runs' },
      { name: 'failed', label: 'Failed', color: 'red.solid', stackId: 'runs' },
      { name: 'pending', label: 'Waiting for the game', color: 'yellow.solid', stackId: 'runs' },
      { name: 'notConnected', label: 'No game connected', color: 'gray.emphasized', stackId: 'runs' },
    ],
  });
  return (
    <Chart.Root chart={chart} h="72" aspectRatio="auto" data-testid="executions-chart">
      <BarChart data={chart.data} responsive>
        <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
        <XAxis dataKey={chart.key('label')} axisLine={false} tickLine={false} minTickGap={16} />
        <YAxis axisLine={false} tickLine={false} allowDecimals={false} width={32} />
        <Tooltip cursor={{ fill: chart.color('bg.muted') }} animationDuration={100} content={<Chart.Tooltip />} />
        <Legend content={<Chart.Legend />} />
        {chart.series.map((item) => (
          <Bar
            key={item.name}
            dataKey={chart.key(item.name)}
            name={String(item.label)}
            fill={chart.color(item.color)}
            stackId={item.stackId}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </Chart.Root>
  );
}
