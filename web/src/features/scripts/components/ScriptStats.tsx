import { Card, HStack, Link, SimpleGrid, Stat, Text } from '@chakra-ui/react';
import { FileCode, Play, Zap, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useScripts } from '../api/scripts.ts';

/**
 * The dashboard's three stat cards, computed from the user's script list. Total Executions is the
 * spec's sum of the scripts' counts: runs of saved scripts, on any target, all time. Code run
 * without a saved script is not in it, so the card says what it counts and where every run is
 * (docs/decisions/046-one-count-of-runs.md).
 */
export function ScriptStats() {
  const { data } = useScripts();
  const stats: { label: string; value: number | undefined; icon: LucideIcon; hint?: ReactNode }[] = [
    { label: 'Total Scripts', value: data?.length, icon: FileCode },
    {
      label: 'Total Executions',
      value: data?.reduce((sum, script) => sum + script.executionCount, 0),
      icon: Play,
      hint: (
        <>
          Runs of your saved scripts, all time. Every run, custom code included, is on the{' '}
          <Link asChild variant="underline">
            <RouterLink to="/runs">Runs page</RouterLink>
          </Link>
          .
        </>
      ),
    },
    { label: 'Auto-Execute', value: data?.filter((script) => script.isAutoExecute).length, icon: Zap },
  ];

  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
      {stats.map(({ label, value, icon: Icon, hint }) => (
        <Card.Root key={label}>
          <Card.Body>
            <HStack justify="space-between" align="flex-start">
              <Stat.Root>
                <Stat.Label>{label}</Stat.Label>
                {/* A dash until the list is known: 0 would be a claim, not a placeholder. */}
                <Stat.ValueText>{value === undefined ? '—' : value.toLocaleString('en')}</Stat.ValueText>
              </Stat.Root>
              <Icon size={16} aria-hidden />
            </HStack>
            {/* Outside the stat's list (dt, dd): a hint is neither the label nor the value. */}
            {hint && (
              <Text fontSize="xs" color="fg.muted" mt="1" data-testid="stat-hint">
                {hint}
              </Text>
            )}
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
