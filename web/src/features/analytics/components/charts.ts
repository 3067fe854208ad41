/**
 * The charts, in a chunk of their own: recharts is most of the Analytics screen's download, and
 * the screen's numbers, titles and layout can show before it arrives.
 */
export { ExecutionsChart } from './ExecutionsChart.tsx';
export { RankedBars } from './RankedBars.tsx';
export { RequestsChart } from './RequestsChart.tsx';
export { SuccessRateChart } from './SuccessRateChart.tsx';
