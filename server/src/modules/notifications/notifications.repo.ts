import type { Insertable, Selectable, Updateable } from 'kysely';
import { NOTIFICATION_ATTEMPTS_KEPT } from '@moonrelay/contract/notifications';
import { whereInChunks, writeInChunks } from '../../db/bulk-writes.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { leaseColumn } from '../../platform/outbox.ts';
import type {
  NotificationAttemptsTable,
  NotificationDeliveriesTable,
  NotificationDestinationsTable,
} from '../../db/schema.ts';

export type DestinationRow = Selectable<NotificationDestinationsTable>;
export type DestinationPatch = Updateable<NotificationDestinationsTable>;
export type DeliveryRow = Selectable<NotificationDeliveriesTable>;
export type AttemptRow = Selectable<NotificationAttemptsTable>;

export const destinationsRepo = {
  async insert(db: Db, row: DestinationRow): Promise<void> {
    await db.insertInto('notificationDestinations').values(row).execute();
  },

  find(db: Db, id: string): Promise<DestinationRow | undefined> {
    return db.selectFrom('notificationDestinations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findForUser(db: Db, userId: string, id: string): Promise<DestinationRow | undefined> {
    return db
      .selectFrom('notificationDestinations')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  },

  listForUser(db: Db, userId: string): Promise<DestinationRow[]> {
    return db
      .selectFrom('notificationDestinations')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** The destinations of these users (each with an event in the flush) hearing about events now (not paused). */
  listActiveForUsers(db: Db, userIds: string[]): Promise<DestinationRow[]> {
    return whereInChunks(db, userIds, (ids) =>
      db
        .selectFrom('notificationDestinations')
        .selectAll()
        .where('userId', 'in', ids)
        .where('pausedAt', 'is', null)
        .execute(),
    );
  },

  async countForUser(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('notificationDestinations')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  async update(db: Db, id: string, patch: DestinationPatch): Promise<boolean> {
    const result = await db.updateTable('notificationDestinations').set(patch).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async remove(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('notificationDestinations')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * The destination's delivery lease, so two processes cannot both deliver its events (which would
   * break their order). Paused destinations are not taken.
   */
  lease: leaseColumn('notificationDestinations', { key: 'id', until: 'deliveringUntil', blockedBy: 'pausedAt' }),
};

export const deliveriesRepo = {
  /** All the rows or none: a flush's events are queued whole, or the flush fails. */
  async insertMany(db: Db, rows: Insertable<NotificationDeliveriesTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await inTransaction(db, (trx) =>
      writeInChunks(trx, rows, (chunk) => trx.insertInto('notificationDeliveries').values(chunk).execute()),
    );
  },

  /** The destination's oldest event not yet delivered or given up on. */
  nextPending(db: Db, destinationId: string): Promise<DeliveryRow | undefined> {
    return db
      .selectFrom('notificationDeliveries')
      .selectAll()
      .where('destinationId', '=', destinationId)
      .where('state', '=', 'pending')
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
  },

  findByEvent(db: Db, destinationId: string, eventId: string): Promise<DeliveryRow | undefined> {
    return db
      .selectFrom('notificationDeliveries')
      .selectAll()
      .where('destinationId', '=', destinationId)
      .where('eventId', '=', eventId)
      .executeTakeFirst();
  },

  async update(db: Db, id: string, patch: Updateable<NotificationDeliveriesTable>): Promise<void> {
    await db.updateTable('notificationDeliveries').set(patch).where('id', '=', id).execute();
  },

  /** Destinations with an event due now, not paused, and nobody delivering them (for the sweep). */
  dueDestinations(db: Db, now: string, limit: number): Promise<string[]> {
    return destinationsRepo.lease.due(db, { table: 'notificationDeliveries', key: 'destinationId' }, now, limit);
  },

  /** Delivered and given-up events past the delivery log's reach, so the outbox stays small. */
  async pruneDone(db: Db, before: string): Promise<void> {
    await db
      .deleteFrom('notificationDeliveries')
      .where('state', '!=', 'pending')
      .where('occurredAt', '<', before)
      .execute();
  },
};

export const attemptsRepo = {
  /** Adds an attempt and drops the destination's attempts beyond the last NOTIFICATION_ATTEMPTS_KEPT. */
  async insert(db: Db, row: AttemptRow): Promise<void> {
    await db.insertInto('notificationAttempts').values(row).execute();
    const kept = db
      .selectFrom('notificationAttempts')
      .select('id')
      .where('destinationId', '=', row.destinationId)
      .orderBy('seq', 'desc')
      .limit(NOTIFICATION_ATTEMPTS_KEPT);
    await db
      .deleteFrom('notificationAttempts')
      .where('destinationId', '=', row.destinationId)
      .where('id', 'not in', db.selectFrom(kept.as('kept')).select('kept.id'))
      .execute();
  },

  listForDestination(db: Db, destinationId: string): Promise<AttemptRow[]> {
    return db
      .selectFrom('notificationAttempts')
      .selectAll()
      .where('destinationId', '=', destinationId)
      .orderBy('seq', 'desc')
      .limit(NOTIFICATION_ATTEMPTS_KEPT)
      .execute();
  },
};
