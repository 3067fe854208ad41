import { Card, HStack, SimpleGrid, Stat } from '@chakra-ui/react';
import { FileCode, Play, Zap, type LucideIcon } from 'lucide-react';
import { useScripts } from '../api/scripts.ts';

/** The dashboard's three stat cards, computed from the user's script list. */
export function ScriptStats() {
  const { data } = useScripts();
  const stats: { label: string; value: number | undefined; icon: LucideIcon }[] = [
    { label: 'Total Scripts', value: data?.length, icon: FileCode },
    { label: 'Total Executions', value: data?.reduce((sum, script) => sum + script.executionCount, 0), icon: Play },
    { label: 'Auto-Execute', value: data?.filter((script) => script.isAutoExecute).length, icon: Zap },
  ];

  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
      {stats.map(({ label, value, icon: Icon }) => (
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
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
