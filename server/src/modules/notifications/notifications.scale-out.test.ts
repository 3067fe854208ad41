import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { fakeWebhookReceiver } from '../../../test/fake-webhook-receiver.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../../../test/instances.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');

/**
 * Notifications in the scale-out mode for real: a server instance and a worker over one PostgreSQL
 * database and a private Redis. Deliveries run on the worker (BullMQ); an event raised while no
 * worker runs waits in the outbox and is delivered, once, when a worker comes back.
 */
describe.skipIf(!postgres)('notifications in the scale-out mode: an instance and a worker', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let server: Instance;
  let worker: Instance | undefined;
  const receiver = fakeWebhookReceiver();
  let receiverBase = '';
  let env: Record<string, string>;

  beforeAll(async () => {
    receiverBase = await receiver.start();
    redis = await startRedis();
    database = await postgres!.create('');
    env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'notifications-scale-out-secret-0123456789',
      RATE_LIMIT_PER_MINUTE: '100000',
      NOTIFY_ALLOWED_HOSTS: '127.0.0.1',
      // A worker killed mid-delivery holds its destination this long; the next one takes over after.
      NOTIFY_LEASE_MS: '30000',
      LOG_LEVEL: 'info',
    };
    server = await startInstance('server', env);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [server, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
    await receiver.stop();
  }, 30_000);

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    callInstance(server, method, path, token, body);

  it('delivers on the worker; an event raised while the worker is down arrives once it is back', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, {
      email: `notify${Date.now()}@example.com`,
      username: `notify${Date.now() % 100000}`,
      name: 'Notified',
      password: 'correct horse battery',
    });
    const token = registered.body.token as string;
    const created = await call('POST', '/api/notifications/destinations', token, {
      kind: 'webhook',
      name: 'Receiver',
      url: `${receiverBase}/hooks`,
      events: ['api-key.regenerated'],
    });
    expect(created.status).toBe(200);
    receiver.setSecret(created.body.secret as string);

    // No worker yet: the server instance queues the delivery in Redis and does not run it.
    const first = await call('POST', `/api/notifications/destinations/${created.body.id}/test`, token);
    expect(first.status).toBe(200);
    expect(
      (await call('GET', `/api/notifications/destinations/${created.body.id}/attempts`, token)).body.attempts,
    ).toEqual([]);

    worker = await startInstance('worker', env);
    await receiver.until(() => receiver.accepted.some((d) => d.headers['moonrelay-event-id'] === first.body.eventId));

    // Once the worker has recorded it (a crash before that would deliver it again, under its id)...
    for (;;) {
      const log = await call('GET', `/api/notifications/destinations/${created.body.id}/attempts`, token);
      if ((log.body.attempts as { status: number }[]).some((attempt) => attempt.status === 200)) break;
    }
    // ...the worker dies; an event raised meanwhile waits in the outbox and the queue.
    await worker.crash();
    const regenerated = await call('POST', '/api/user/regenerate-key', token);
    expect(regenerated.status).toBe(200);
    worker = await startInstance('worker', env);
    await receiver.until(() => receiver.accepted.some((d) => JSON.parse(d.body).type === 'api-key.regenerated'));
    const ids = receiver.accepted.map((d) => String(d.headers['moonrelay-event-id']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(2);
  }, 120_000);

  it('loses nothing when the worker dies mid-delivery and Redis restarts empty: the event comes again under its id', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, {
      email: `notify-cut${Date.now()}@example.com`,
      username: `ncut${Date.now() % 100000}`,
      name: 'Notified through a cut',
      password: 'correct horse battery',
    });
    const token = registered.body.token as string;
    const created = await call('POST', '/api/notifications/destinations', token, {
      kind: 'webhook',
      name: 'Receiver through a cut',
      url: `${receiverBase}/hooks/cut`,
      events: ['api-key.regenerated'],
    });
    expect(created.status).toBe(200);
    receiver.setSecret(created.body.secret as string);
    worker ??= await startInstance('worker', env);

    receiver.holdNext();
    const sent = await call('POST', `/api/notifications/destinations/${created.body.id}/test`, token);
    expect(sent.status).toBe(200);
    const eventId = sent.body.eventId as string;
    await receiver.until(() => receiver.holding);
    // The worker dies with the request open; the receiver never answers it.
    await worker.crash();
    worker = undefined;
    receiver.release('drop');
    // Redis goes too, and comes back empty on the same port: every queued job is gone.
    await redis.stop();
    redis = await startRedis(redis.port);
    // An event raised meanwhile: its job went to the new, empty Redis (or nowhere while it was down).
    const regenerated = await call('POST', '/api/user/regenerate-key', token);
    expect(regenerated.status).toBe(200);

    worker = await startInstance('worker', env);
    const deliveredIds = () =>
      receiver.accepted
        .filter((d) => d.url.startsWith('/hooks/cut'))
        .map((d) => String(d.headers['moonrelay-event-id']));
    await receiver.until(() => deliveredIds().length >= 2);
    // The test event comes again under the id it was first sent with; each event arrives once, in order.
    const bodies = receiver.accepted.filter((d) => d.url.startsWith('/hooks/cut')).map((d) => JSON.parse(d.body));
    expect(bodies.map((b) => b.type)).toEqual(['test', 'api-key.regenerated']);
    expect(bodies[0].id).toBe(eventId);
    expect(new Set(deliveredIds()).size).toBe(2);
  }, 180_000);
});
