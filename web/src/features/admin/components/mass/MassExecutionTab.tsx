import { SimpleGrid, Stack } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useSelection } from '../../selection.ts';
import { CommandForm } from './CommandForm.tsx';
import { MassProgressList } from './MassProgressList.tsx';
import { ScriptForm } from './ScriptForm.tsx';
import { SelectedUsers } from './SelectedUsers.tsx';

/**
 * Mass Execution (spec section 2): the selected users, a command for all of their games, a script
 * for all of them, and how each user's part of the latest run is going. The server runs a job per
 * user and reports each part as it moves on.
 */
export function MassExecutionTab() {
  const selected = useSelection((state) => state.selected);
  const users = useMemo(() => Object.values(selected), [selected]);
  return (
    <Stack gap="4">
      <SelectedUsers users={users} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
        <CommandForm users={users} />
        <ScriptForm users={users} />
      </SimpleGrid>
      <MassProgressList />
    </Stack>
  );
}
