import { Card, HStack, SimpleGrid, Stat } from '@chakra-ui/react';
import { Activity, CheckCircle2, Gauge, Play, Timer, type LucideIcon } from 'lucide-react';
import type { ScriptAnalytics, UsageAnalytics } from '@moonrelay/contract/analytics';

const number = (value: number | null | undefined, unit = '') =>
  value === null || value === undefined ? '—' : `${value.toLocaleString('en')}${unit}`;

/** The headline numbers of both answers; a dash while loading or when there is nothing to measure. */
export function StatCards({ usage, stats }: { usage?: UsageAnalytics; stats?: ScriptAnalytics }) {
  const cards: { label: string; value: string; icon: LucideIcon }[] = [
    { label: 'Total Requests', value: number(usage?.totalRequests), icon: Activity },
    {
      label: 'Average Response Time',
      value: usage ? number(usage.totalRequests ? usage.averageResponseTime : null, ' ms') : '—',
      icon: Gauge,
    },
    { label: 'Total Executions', value: number(stats?.totalExecutions), icon: Play },
    { label: 'Success Rate', value: number(stats?.successRate, '%'), icon: CheckCircle2 },
    { label: 'Average Execution Time', value: number(stats?.averageExecutionTime, ' ms'), icon: Timer },
  ];
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, xl: 5 }} gap="4">
      {cards.map(({ label, value, icon: Icon }) => (
        <Card.Root key={label} size="sm" h="full">
          <Card.Body>
            <HStack justify="space-between" align="flex-start">
              <Stat.Root>
                <Stat.Label>{label}</Stat.Label>
                <Stat.ValueText>{value}</Stat.ValueText>
              </Stat.Root>
              <Icon size={16} aria-hidden />
            </HStack>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
