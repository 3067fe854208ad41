import { IconButton, Portal, Tooltip } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface Props {
  /** Accessible name and tooltip text. */
  label: string;
  children: ReactNode;
  /** Makes the button a link to this path. */
  to?: string;
  onClick?: () => void;
  disabled?: boolean;
  /** Why the member's role does not allow it: the disabled button's title (its tooltip cannot show). */
  reason?: string;
  colorPalette?: string;
}

/** A small icon button with a tooltip, used for the per-script actions. */
export function ActionIconButton({ label, children, to, onClick, disabled, reason, colorPalette = 'gray' }: Props) {
  // A link cannot be disabled, so a busy edit action falls back to a disabled button.
  const button =
    to && !disabled ? (
      <IconButton asChild aria-label={label} size="sm" variant="ghost" colorPalette={colorPalette}>
        <Link to={to}>{children}</Link>
      </IconButton>
    ) : (
      <IconButton
        aria-label={label}
        size="sm"
        variant="ghost"
        colorPalette={colorPalette}
        disabled={disabled}
        title={reason}
        onClick={onClick}
      >
        {children}
      </IconButton>
    );

  return (
    // Mounted only when shown: a long list would otherwise carry four tooltips per row.
    <Tooltip.Root openDelay={300} lazyMount unmountOnExit>
      <Tooltip.Trigger asChild>{button}</Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{label}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
