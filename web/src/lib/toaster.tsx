import { Toaster as ChakraToaster, Portal, Stack, Toast, createToaster } from '@chakra-ui/react';
import { TOAST_DURATION_MS } from '@moonrelay/contract/constants';

/** One toast at a time (spec section 9), closing after 5000 ms unless told otherwise. */
export const toaster = createToaster({ placement: 'bottom-end', max: 1, pauseOnPageIdle: true });

export interface Notice {
  title: string;
  description?: string;
  type?: 'success' | 'error' | 'info' | 'warning';
  duration?: number;
}

// Counts the toasts made, and remembers the count at the last warning or error.
let made = 0;
let lastWarningAt = -1;

/** Shows a toast, replacing the one on screen. 'error' is the spec's destructive style. */
export function notify({ title, description, type = 'success', duration = TOAST_DURATION_MS }: Notice): void {
  made += 1;
  if (type === 'warning' || type === 'error') lastWarningAt = made;
  // remove() rather than dismiss(): the replacement shows at once instead of after the exit animation.
  toaster.remove();
  toaster.create({ title, description, type, duration, closable: true });
}

/** A mark to give `notifyDone` when an action starts. */
export const noticeMark = (): number => made;

/**
 * Tells that an action went through, unless a warning or error was shown while it ran: with one
 * toast at a time, "Test event sent" must not hide "Ops channel paused", which the same click
 * caused and which says more.
 */
export function notifyDone(since: number, notice: Notice): void {
  if (lastWarningAt > since) return;
  notify(notice);
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="toast">
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
