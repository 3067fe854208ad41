import { Chart, useChart } from '@chakra-ui/charts';
import { Area, AreaChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsPeriod, RequestBucket } from '@moonrelay/contract/analytics';
import { requestSeries } from '../chart-data.ts';

/** API requests per bucket, with the ones that failed. */
export function RequestsChart({ buckets, period }: { buckets: RequestBucket[]; period: AnalyticsPeriod }) {
  const chart = useChart({
    data: requestSeries(buckets, period),
    series: [
      { name: 'requests', label: 'Requests', color: 'purple.solid' },
      { name: 'errors', label: 'Errors', color: 'red.solid' },
    ],
  });
  return (
    <Chart.Root chart={chart} h="72" aspectRatio="auto" data-testid="requests-chart">
      <AreaChart data={chart.data} responsive>
        <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
        <XAxis dataKey={chart.key('label')} axisLine={false} tickLine={false} minTickGap={16} />
        <YAxis axisLine={false} tickLine={false} allowDecimals={false} width={40} />
        <Tooltip cursor={false} animationDuration={100} content={<Chart.Tooltip />} />
        <Legend content={<Chart.Legend />} />
        {chart.series.map((item) => (
          <Area
            key={item.name}
            type="monotone"
            dataKey={chart.key(item.name)}
            name={String(item.label)}
            fill={chart.color(item.color)}
            fillOpacity={0.2}
            stroke={chart.color(item.color)}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </Chart.Root>
  );
}
