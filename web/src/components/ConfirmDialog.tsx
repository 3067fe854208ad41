import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactElement, ReactNode } from 'react';

interface Props {
  /**
   * The element that opens the dialog. Without one, `open` alone opens it (a button that cannot
   * take the trigger's props, such as one wrapped in a tooltip); focus then returns to whatever
   * had it before.
   */
  trigger?: ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
}

/**
 * A destructive confirmation (an alert dialog): Cancel, or the red confirm button. While the
 * action runs, the dialog cannot be dismissed, so its outcome is always seen.
 */
export function ConfirmDialog(props: Props) {
  const { trigger, open, onOpenChange, title, children, confirmLabel, pendingLabel, pending, onConfirm } = props;
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(event) => onOpenChange(event.open)}
      closeOnInteractOutside={!pending}
    >
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={pending}>
                  Cancel
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" onClick={onConfirm} loading={pending} loadingText={pendingLabel}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={pending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
