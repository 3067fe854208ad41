import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { createLogger, type Logger } from '../../logger.ts';
import { insertUserRow } from '../../../test/user-rows.ts';
import { createNotifier, type RaisedEvent } from './notifier.ts';
import type { DeliveryRow } from './notifications.repo.ts';
import { createSignInAddresses } from './sign-in-addresses.ts';

/** A logger that hands each warning and error to the test as it is written. */
function listeningLogger() {
  const lines: { level: 'warn' | 'error'; message: string }[] = [];
  const waiters: ((message: string) => void)[] = [];
  const write = (level: 'warn' | 'error') => (_fields: unknown, message: string) => {
    lines.push({ level, message });
    waiters.splice(0).forEach((wake) => wake(message));
  };
  const logger = { ...createLogger('silent'), warn: write('warn'), error: write('error') } as unknown as Logger;
  return { logger, lines, next: () => new Promise<string>((resolve) => waiters.push(resolve)) };
}

const RAISED: RaisedEvent = {
  kind: 'test',
  title: 'Raised',
  description: 'An event',
  path: '/settings',
  fields: [],
  data: {},
};

/**
 * The notifier's edges that the API suites meet only by chance (an event raised as the server shuts
 * down, a destination deleted before its event is sent again, a database gone mid-flush), on a
 * real SQLite file.
 */
describe('the notifier at its edges', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-notifier-'));
  let live: DatabaseHandle;
  let closed: DatabaseHandle;
  beforeAll(async () => {
    live = openDatabase({ kind: 'sqlite', file: path.join(dir, 'live.db') }, createLogger('silent'));
    await migrateToLatest(live.db);
    // A user whose destination hears every test event: an event that reached the outbox would show.
    const at = '2026-01-01T00:00:00.000Z';
    await insertUserRow(live.db, 'user-1');
    await live.db
      .insertInto('notificationDestinations')
      .values({
        id: 'destination-1',
        userId: 'user-1',
        kind: 'webhook',
        name: 'Receiver',
        urlSealed: 'sealed',
        maskedUrl: 'https://example.com/…',
        secretSealed: null,
        events: 'test',
        pausedAt: null,
        pausedReason: null,
        failuresInRow: 0,
        lastDeliveryAt: null,
        deliveringUntil: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    closed = openDatabase({ kind: 'sqlite', file: path.join(dir, 'closed.db') }, createLogger('silent'));
    await migrateToLatest(closed.db);
    await closed.close();
  });
  afterAll(async () => {
    await live.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const deliveries = async () =>
    Number(
      (
        await live.db
          .selectFrom('notificationDeliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores an event raised while open, and nothing raised after it closed', async () => {
    const handed: string[] = [];
    const notifier = createNotifier({
      db: live.db,
      logger: createLogger('silent'),
      hand: async (id) => void handed.push(id),
    });
    notifier.raise('user-1', () => RAISED);
    await notifier.settle();
    expect(await deliveries()).toBe(1);
    expect(handed).toEqual(['destination-1']);
    await notifier.close();
    notifier.raise('user-1', () => RAISED);
    await notifier.settle();
    expect(await deliveries()).toBe(1);
    expect(handed).toEqual(['destination-1']);
  });

  it('sends nothing again for a destination deleted since', async () => {
    const handed: string[] = [];
    const notifier = createNotifier({
      db: live.db,
      logger: createLogger('silent'),
      hand: async (id) => void handed.push(id),
    });
    const event = { ...RAISED, id: 'event-1', userId: 'user-1', occurredAt: new Date().toISOString() };
    const before = await deliveries();
    await notifier.redeliver({ destinationId: 'deleted-destination', payload: JSON.stringify(event) } as DeliveryRow);
    expect(await deliveries()).toBe(before);
    expect(handed).toEqual([]);
  });

  it('logs a flush whose database is gone, and raising goes on', async () => {
    const { logger, next } = listeningLogger();
    const notifier = createNotifier({ db: closed.db, logger, hand: async () => {} });
    const logged = next();
    notifier.raise('user-1', () => RAISED);
    expect(await logged).toBe('notifications: storing events failed');
    const again = next();
    notifier.raise('user-1', () => RAISED);
    expect(await again).toBe('notifications: storing events failed');
  });

  it('a sign-in whose address cannot be noted is logged, and the sign-in is not failed', async () => {
    const { logger, next } = listeningLogger();
    const addresses = createSignInAddresses({ db: closed.db, logger, raise: () => {} });
    const logged = next();
    expect(() => addresses.signedIn('user-1', '203.0.113.7')).not.toThrow();
    expect(await logged).toBe('notifications: noting a sign-in failed');
  });
});
