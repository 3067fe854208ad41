import { BarList, useChart, type BarListData } from '@chakra-ui/charts';
import { uniqueNames } from '../chart-data.ts';

/** Horizontal bars, longest first: the busiest scripts, or the endpoints called most. */
export function RankedBars({ items, color, testId }: { items: BarListData[]; color: string; testId: string }) {
  const chart = useChart<BarListData>({
    data: uniqueNames(items),
    sort: { by: 'value', direction: 'desc' },
    series: [{ name: 'name', color }],
  });
  return (
    <BarList.Root chart={chart} data-testid={testId}>
      <BarList.Content>
        <BarList.Bar tooltip label={({ payload }) => <span title={payload.name}>{payload.name}</span>} />
        <BarList.Value valueFormatter={(value) => value.toLocaleString('en')} />
      </BarList.Content>
    </BarList.Root>
  );
}
