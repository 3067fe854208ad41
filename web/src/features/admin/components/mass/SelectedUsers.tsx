import { Button, Card, HStack, Tag, Text, Wrap } from '@chakra-ui/react';
import type { BatchUser } from '../../live/admin-live-store.ts';
import { useSelection } from '../../selection.ts';

/** Who Mass Execution will reach: the users ticked in the Users tab, each removable here. */
export function SelectedUsers({ users }: { users: BatchUser[] }) {
  const toggle = useSelection((state) => state.toggle);
  const clear = useSelection((state) => state.clear);
  return (
    <Card.Root size="sm" role="region" aria-label="Selected users">
      <Card.Header>
        <HStack justify="space-between">
          <Card.Title as="h2">Selected users ({users.length})</Card.Title>
          {users.length > 0 && (
            <Button size="xs" variant="ghost" onClick={clear}>
              Clear selection
            </Button>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        {users.length === 0 ? (
          <Text color="fg.muted" fontSize="sm">
            No users selected. Tick users in the Users tab to run commands or scripts on their games.
          </Text>
        ) : (
          <Wrap gap="2" data-testid="selected-users">
            {users.map((user) => (
              <Tag.Root key={user.id} size="lg" variant="surface">
                <Tag.Label>
                  {user.name} @{user.username}
                </Tag.Label>
                <Tag.EndElement>
                  <Tag.CloseTrigger aria-label={`Unselect ${user.name}`} onClick={() => toggle(user, false)} />
                </Tag.EndElement>
              </Tag.Root>
            ))}
          </Wrap>
        )}
      </Card.Body>
    </Card.Root>
  );
}
