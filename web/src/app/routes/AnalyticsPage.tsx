import { AnalyticsScreen } from '../../features/analytics/components/AnalyticsScreen.tsx';

/** Analytics: charts of the user's script runs and API requests. */
export default function AnalyticsPage() {
  return <AnalyticsScreen />;
}
