import { Card, Separator, Stack, Text, Wrap } from '@chakra-ui/react';
import { Heart, RotateCcw, Zap } from 'lucide-react';
import { DASHBOARD_SPEED_MULTIPLIER, QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { useCan } from '../../../lib/team-access.ts';
import { GAME_ACTIONS } from '../game-text.ts';
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

/**
 * Game Controls: teleport, quick teleports, heal, speed and reset; all disabled while disconnected,
 * and for a team member whose role may not send commands to the game (game.control), with a note
 * under them saying so.
 */
export function GameControlsCard({ connected, serverId }: Props) {
  const control = useCan('game.control');
  const disabled = !connected || !control.allowed;
  const reason = control.reason;
  return (
    <Card.Root role="region" aria-label="Game Controls">
      <Card.Header>
        <Card.Title>Game Controls</Card.Title>
        {!connected && <Card.Description>Connect your game to use the controls.</Card.Description>}
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <TeleportForm serverId={serverId} disabled={disabled} reason={reason} />
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
                  reason={reason}
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
              reason={reason}
              colorPalette="green"
            >
              <Heart size={14} /> Heal Player
            </CommandButton>
            <CommandButton
              command={{ type: 'speed', data: { multiplier: DASHBOARD_SPEED_MULTIPLIER } }}
              serverId={serverId}
              disabled={disabled}
              reason={reason}
              colorPalette="blue"
            >
              <Zap size={14} /> Speed Boost
            </CommandButton>
            <CommandButton
              command={{ type: 'reset', data: {} }}
              serverId={serverId}
              disabled={disabled}
              reason={reason}
              colorPalette="red"
            >
              <RotateCcw size={14} /> Reset Character
            </CommandButton>
          </Wrap>
          <PermissionNotes notes={[{ action: GAME_ACTIONS.controls, can: control }]} />
          <LastCommandStatus />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
