import crypto from 'node:crypto';
import type { NotificationEventKind } from '@moonrelay/contract/notifications';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import type { Logger } from '../../logger.ts';
import type { NotificationEvent } from './notification-event.ts';
import { deliveriesRepo, destinationsRepo, type DeliveryRow, type DestinationRow } from './notifications.repo.ts';

/** The job that delivers a destination's waiting events, oldest first (delivery.ts runs it). */
export const NOTIFICATION_DELIVERY_JOB = 'notification-delivery';
export interface DeliveryJob {
  destinationId: string;
}

/** What a source says about an event; the notifier gives it its id and time. */
export type RaisedEvent = Omit<NotificationEvent, 'id' | 'occurredAt' | 'userId'>;

let lastSeq = 0;
/** Orders events as this process raised them: microseconds since the epoch, never repeating. */
export function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  return lastSeq;
}

/**
 * Takes events from the code that raises them and writes them to the outbox, one row per
 * destination that chose the event, then asks the job queue to deliver. Raising only appends to a
 * list: the database and the queue are reached on a later turn of the event loop, so a ping or a
 * run is never held up by notifications (bench/notifications.ts measures what raising costs).
 */
export function createNotifier(deps: {
  db: Db;
  logger: Logger;
  /** Asks for a destination's waiting events to be delivered (delivery.ts). */
  hand: (destinationId: string) => Promise<void>;
}) {
  const { db, logger } = deps;
  /** Raised and not yet stored: who, when, and how to word it (worded later, off the raiser's path). */
  let waiting: { userId: string; atMs: number; build: () => RaisedEvent }[] = [];
  let scheduled = false;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  const enqueue = async (destinationIds: Iterable<string>) => {
    for (const destinationId of new Set(destinationIds)) await deps.hand(destinationId);
  };

  const rowFor = (destination: DestinationRow, event: NotificationEvent) => ({
    id: crypto.randomUUID(),
    destinationId: destination.id,
    eventId: event.id,
    event: event.kind,
    payload: JSON.stringify(event),
    occurredAt: event.occurredAt,
    seq: nextSeq(),
    state: 'pending',
    attempts: 0,
    nextAttemptAt: event.occurredAt,
    deliveredAt: null,
  });

  async function flush(): Promise<void> {
    scheduled = false;
    const raised = waiting;
    waiting = [];
    if (raised.length === 0) return;
    const events: NotificationEvent[] = raised.map(({ userId, atMs, build }) => ({
      ...build(),
      id: crypto.randomUUID(),
      userId,
      occurredAt: new Date(atMs).toISOString(),
    }));
    const userIds = [...new Set(events.map((event) => event.userId))];
    const destinations = await destinationsRepo.listActiveForUsers(db, userIds);
    if (destinations.length === 0) return;
    const rows = [];
    // A destination added after the event happened (stored late, behind a busy database) does not
    // hear of it: it chose to hear what happens from its creation on.
    for (const event of events)
      for (const destination of destinations)
        if (
          destination.userId === event.userId &&
          destination.createdAt <= event.occurredAt &&
          destination.events.split(',').includes(event.kind)
        )
          rows.push(rowFor(destination, event));
    await deliveriesRepo.insertMany(db, rows);
    await enqueue(rows.map((row) => row.destinationId));
  }

  return {
    /**
     * Notes an event of `userId`; delivered to each of their destinations that chose its kind.
     * `build` words it, on a later turn of the event loop.
     */
    raise(userId: string, build: () => RaisedEvent): void {
      if (closed) return;
      waiting.push({ userId, atMs: Date.now(), build });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        flushing = flushing
          .then(flush)
          .catch((error: unknown) => logger.error({ err: error }, 'notifications: storing events failed'));
      });
    },

    /** A test event for one destination, paused or not; answers its event id. */
    async sendTest(destination: DestinationRow): Promise<string> {
      const event: NotificationEvent = {
        id: crypto.randomUUID(),
        kind: 'test',
        userId: destination.userId,
        occurredAt: nowIso(),
        title: 'Test notification from Moonrelay',
        description: `This destination (${destination.name}) is set up: events you chose will arrive here.`,
        path: '/settings',
        fields: [],
        data: { destinationId: destination.id },
      };
      await deliveriesRepo.insertMany(db, [rowFor(destination, event)]);
      await enqueue([destination.id]);
      return event.id;
    },

    /** The same event again, under its own id, behind what is waiting. */
    async redeliver(delivery: DeliveryRow): Promise<void> {
      const event = JSON.parse(delivery.payload) as NotificationEvent;
      const destination = await destinationsRepo.find(db, delivery.destinationId);
      if (!destination) return;
      await deliveriesRepo.insertMany(db, [{ ...rowFor(destination, event), nextAttemptAt: nowIso() }]);
      await enqueue([destination.id]);
    },

    /** A destination was resumed: what waited for it is delivered now. */
    wake: (destinationId: string) => enqueue([destinationId]),

    /** Waits until the events raised so far are in the outbox (tests, shutdown). */
    async settle(): Promise<void> {
      while (scheduled || waiting.length) {
        await new Promise((resolve) => setImmediate(resolve));
        await flushing;
      }
      await flushing;
    },

    async close(): Promise<void> {
      await this.settle();
      closed = true;
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
export type { NotificationEventKind };
