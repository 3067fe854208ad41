import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { fakeWebhookReceiver } from '../../../test/fake-webhook-receiver.ts';
import { startInstance, startRedis, type Instance } from '../../../test/instances.ts';

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

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (await response.json()) as any };
  };

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
});
