import { Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import type { Position } from '@moonrelay/contract/game';

const AXES = ['x', 'y', 'z'] as const;

/**
 * The player's position as read-only X, Y and Z fields (rounded). Until the game reports one they
 * hold the spawn point (0, 50, 0, spec section 2), and say so, so the defaults never pass for a
 * reported position.
 */
export function PositionFields({ position }: { position: Position | undefined }) {
  const shown = position ?? QUICK_TELEPORTS.spawn;
  return (
    <Stack gap="1">
      <HStack gap="2">
        {AXES.map((axis) => (
          <Field.Root key={axis}>
            <Field.Label>{axis.toUpperCase()}</Field.Label>
            <Input size="sm" readOnly value={String(Math.round(shown[axis]))} />
          </Field.Root>
        ))}
      </HStack>
      {!position && (
        <Text fontSize="xs" color="fg.muted">
          The spawn point: the game has not reported a position yet.
        </Text>
      )}
    </Stack>
  );
}
