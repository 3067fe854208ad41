import { Button, Field, HStack, Input } from '@chakra-ui/react';
import { MapPin } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import { PositionSchema, type Position } from '@moonrelay/contract/game';
import { useGameCommand } from './useGameCommand.ts';

type Axis = keyof Position;
type Draft = Record<Axis, string>;
const AXES: readonly Axis[] = ['x', 'y', 'z'];

/** Decimal numbers only (spec section 5): "12", "-3.5", ".5"; not "", "1e3" or "0x10". */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/** The coordinates typed, or null while any of them is not a usable number. */
export function parsePosition(draft: Draft): Position | null {
  if (!AXES.every((axis) => DECIMAL.test(draft[axis].trim()))) return null;
  const parsed = PositionSchema.safeParse({ x: Number(draft.x), y: Number(draft.y), z: Number(draft.z) });
  return parsed.success ? parsed.data : null;
}

const { spawn } = QUICK_TELEPORTS;

interface Props {
  serverId: string | undefined;
  disabled: boolean;
  /** Why the member's role does not allow it, shown as the disabled button's title. */
  reason?: string;
}

/** X, Y and Z inputs (starting at the spawn point) and a Teleport button that sends the player there. */
export function TeleportForm({ serverId, disabled, reason }: Props) {
  const { sendCommand, isSending } = useGameCommand(serverId);
  const [shown, setShown] = useState<Draft>({ x: String(spawn.x), y: String(spawn.y), z: String(spawn.z) });
  const target = parsePosition(shown);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target && !disabled) void sendCommand({ type: 'teleport', data: target });
  };

  return (
    <form onSubmit={submit} aria-label="Teleport">
      <HStack gap="2" align="flex-end">
        {AXES.map((axis) => (
          <Field.Root key={axis} disabled={disabled} invalid={!DECIMAL.test(shown[axis].trim())}>
            <Field.Label>{axis.toUpperCase()}</Field.Label>
            <Input
              type="number"
              step="any"
              inputMode="decimal"
              size="sm"
              value={shown[axis]}
              onChange={(event) => setShown({ ...shown, [axis]: event.target.value })}
            />
          </Field.Root>
        ))}
        <Button
          type="submit"
          size="sm"
          colorPalette="purple"
          disabled={disabled || !target}
          title={reason}
          loading={isSending}
        >
          <MapPin size={14} /> Teleport
        </Button>
      </HStack>
    </form>
  );
}
