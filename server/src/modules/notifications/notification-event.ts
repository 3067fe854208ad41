import type { NotificationEventKind } from '@moonrelay/contract/notifications';

/** What happened, in the words a message shows; the same for every destination it goes to. */
export interface NotificationEvent {
  /** Unique per event; a redelivery carries the same one. */
  id: string;
  kind: NotificationEventKind;
  userId: string;
  occurredAt: string;
  title: string;
  description: string;
  /** The dashboard page it is about (joined to PUBLIC_URL). */
  path: string;
  fields: { name: string; value: string }[];
  /** The facts, for a generic webhook's receiver. */
  data: Record<string, unknown>;
}

/**
 * The body a generic webhook receives. `deliveryId` is new on every attempt, so no two deliveries
 * are signed alike (a receiver refuses a signature it has seen: a replay); `id` is the event's, the
 * same on a retry or a redelivery (a receiver drops an event it already handled).
 */
export function webhookBody(event: NotificationEvent, publicUrl: string | undefined, deliveryId: string) {
  return {
    id: event.id,
    deliveryId,
    type: event.kind,
    occurredAt: event.occurredAt,
    title: event.title,
    description: event.description,
    url: publicUrl ? new URL(event.path, publicUrl).toString() : null,
    data: event.data,
  };
}
