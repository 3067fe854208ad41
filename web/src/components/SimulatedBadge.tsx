import { Badge, type BadgeProps } from '@chakra-ui/react';
import { SIMULATOR_TEXT } from '@moonrelay/contract/simulated';

/** "Simulated": wherever a simulated game server (or its player, or a run on it) is shown. */
export function SimulatedBadge(props: BadgeProps) {
  return (
    <Badge colorPalette="orange" title={SIMULATOR_TEXT.badgeHint} data-testid="simulated-badge" {...props}>
      {SIMULATOR_TEXT.badge}
    </Badge>
  );
}
