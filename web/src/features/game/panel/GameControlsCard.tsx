import { Card, Separator, Stack, Text, Wrap } from '@chakra-ui/react';
import { Heart, RotateCcw, Zap } from 'lucide-react';
import { DASHBOARD_SPEED_MULTIPLIER, QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import { CommandButton } from './CommandButton.tsx';
import { LastCommandStatus } from './LastCommandStatus.tsx';
import { TeleportForm } from './TeleportForm.tsx';

interface Props {
  connected: boolean;
  serverId: string | undefined;
}

const QUICK_TELEPORT_BUTTONS = [
  { label: 'Spawn', position: QUICK_TELEPORTS.spawn },
  { label: 'Sky', position: QUICK_TELEPORTS.sky },
  { label: 'Far Away', position: QUICK_TELEPORTS.far },
] as const;

/** Game Controls: teleport, quick teleports, heal, speed and reset; all disabled while disconnected. */
export function GameControlsCard({ connected, serverId }: Props) {
  const disabled = !connected;
  return (
    <Card.Root role="region" aria-label="Game Controls">
      <Card.Header>
        <Card.Title>Game Controls</Card.Title>
        {disabled && <Card.Description>Connect your game to use the controls.</Card.Description>}
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <TeleportForm serverId={serverId} disabled={disabled} />
          <Stack gap="2">
            <Text fontSize="sm" fontWeight="medium">
              Quick teleports
            </Text>
            <Wrap gap="2">
              {QUICK_TELEPORT_BUTTONS.map(({ label, position }) => (
                <CommandButton
                  key={label}
                  command={{ type: 'teleport', data: { ...position } }}
                  serverId={serverId}
                  disabled={disabled}
                >
                  {label}
                </CommandButton>
              ))}
            </Wrap>
          </Stack>
          <Separator />
          <Wrap gap="2">
            <CommandButton
              command={{ type: 'heal', data: {} }}
              serverId={serverId}
              disabled={disabled}
              colorPalette="green"
            >
              <Heart size={14} /> Heal Player
            </CommandButton>
            <CommandButton
              command={{ type: 'speed', data: { multiplier: DASHBOARD_SPEED_MULTIPLIER } }}
              serverId={serverId}
              disabled={disabled}
              colorPalette="blue"
            >
              <Zap size={14} /> Speed Boost
            </CommandButton>
            <CommandButton
              command={{ type: 'reset', data: {} }}
              serverId={serverId}
              disabled={disabled}
              colorPalette="red"
            >
              <RotateCcw size={14} /> Reset Character
            </CommandButton>
          </Wrap>
          <LastCommandStatus />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
