import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  NOTIFICATION_DESTINATIONS_PER_USER,
  NOTIFICATION_ERRORS,
  type NotificationAttempt,
  type NotificationDestination,
} from '@moonrelay/contract/notifications';
import { describeOnSQLite } from '../../../test/engines.ts';
import { fakeDiscord } from '../../../test/fake-discord.ts';
import { fakeWebhookReceiver } from '../../../test/fake-webhook-receiver.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { DISCORD_COLOURS, DISCORD_LIMITS } from './discord-message.ts';

const PUBLIC_URL = 'https://moonrelay.example.com';

describeOnSQLite('notifications API', (engine) => {
  let server: TestServer;
  const discord = fakeDiscord({ limit: 3, windowMs: 1500 });
  const receiver = fakeWebhookReceiver();
  let discordBase = '';
  let receiverBase = '';
  beforeAll(async () => {
    discordBase = await discord.start();
    receiverBase = await receiver.start();
    server = await startTestServer(engine, {
      // The tests' fakes listen on 127.0.0.1, which only the operator's allow-list lets through.
      NOTIFY_ALLOWED_HOSTS: '127.0.0.1',
      NOTIFY_DISCORD_ORIGINS: discordBase,
      NOTIFY_RETRY_BASE_MS: '200',
      PUBLIC_URL,
      // Sign-ins "from" other addresses arrive through a proxy's X-Forwarded-For.
      TRUST_PROXY: 'true',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await discord.stop();
    await receiver.stop();
  });

  let webhookCounter = 100000000000000000n;
  const discordUrl = () => {
    webhookCounter += 1n;
    return {
      id: String(webhookCounter),
      url: `${discordBase}/api/webhooks/${webhookCounter}/${crypto.randomBytes(51).toString('base64url')}`,
    };
  };
  const create = (token: string, body: unknown) =>
    server.call('POST', '/api/notifications/destinations', { token, body });
  const list = async (token: string) =>
    (await server.call('GET', '/api/notifications/destinations', { token })).body
      .destinations as NotificationDestination[];
  const attempts = async (token: string, id: string) =>
    (await server.call('GET', `/api/notifications/destinations/${id}/attempts`, { token })).body
      .attempts as NotificationAttempt[];
  const sendTest = async (token: string, id: string) => {
    const res = await server.call('POST', `/api/notifications/destinations/${id}/test`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.eventId as string;
  };
  const newWebhook = async (token: string, events = ['run.failed']) => {
    const res = await create(token, {
      kind: 'webhook',
      name: 'Receiver',
      url: `${receiverBase}/hooks/moonrelay?team=7`,
      events,
    });
    expect(res.status, res.text).toBe(200);
    receiver.setSecret(res.body.secret as string);
    return res.body as NotificationDestination & { secret: string };
  };
  /** The delivery log once `ready` holds, re-read as deliveries are recorded. */
  const logWhen = async (token: string, id: string, ready: (log: NotificationAttempt[]) => boolean) => {
    for (;;) {
      const log = await attempts(token, id);
      if (ready(log)) return log;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('adds, lists, changes and deletes destinations, with URL and secret sealed and masked', async () => {
    const { token } = await registerUser(server);
    const hook = discordUrl();
    const res = await create(token, {
      kind: 'discord',
      name: 'Ops channel',
      url: hook.url,
      events: ['server.disconnected', 'run.failed'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'discord',
      name: 'Ops channel',
      maskedUrl: `${discordBase}/api/webhooks/${hook.id}/…`,
      events: ['server.disconnected', 'run.failed'],
      pausedReason: null,
      failuresInRow: 0,
      secret: null,
    });
    const token68 = hook.url.split('/').pop()!;
    expect(res.text).not.toContain(token68);
    const webhook = await newWebhook(token);
    expect(webhook.secret).toMatch(/^whsec_/);
    expect(webhook.maskedUrl).toBe(`${receiverBase}/…`);

    const listed = await server.call('GET', '/api/notifications/destinations', { token });
    expect(listed.body.limit).toBe(NOTIFICATION_DESTINATIONS_PER_USER);
    expect((listed.body.destinations as NotificationDestination[]).map((d) => d.name)).toEqual([
      'Ops channel',
      'Receiver',
    ]);
    expect(listed.text).not.toContain(token68);
    expect(listed.text).not.toContain(webhook.secret);
    expect(listed.text).not.toContain('team=7');

    // At rest: neither the Discord token nor the secret nor the webhook's query is in the database.
    const rows = await server.app.database.db.selectFrom('notificationDestinations').selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token68);
    expect(stored).not.toContain(webhook.secret);
    expect(stored).not.toContain('team=7');

    const changed = await server.call('PUT', `/api/notifications/destinations/${res.body.id}`, {
      token,
      body: { name: 'Alerts', events: ['schedule.failed'] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Alerts', events: ['schedule.failed'] });

    // Another user sees none of it.
    const other = await registerUser(server);
    expect(await list(other.token)).toEqual([]);
    const foreign = await server.call('DELETE', `/api/notifications/destinations/${res.body.id}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: NOTIFICATION_ERRORS.notFound });

    const removed = await server.call('DELETE', `/api/notifications/destinations/${res.body.id}`, { token });
    expect(removed.status).toBe(200);
    expect((await list(token)).map((d) => d.id)).toEqual([webhook.id]);
  });

  it("tells a team's destinations who joined it and as what", async () => {
    const owner = await registerUser(server);
    const team = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Notified' } });
    const onTeam = { token: owner.token, headers: { 'Moonrelay-Team': team.body.id as string } };
    const hook = await server.call('POST', '/api/notifications/destinations', {
      ...onTeam,
      body: { kind: 'webhook', name: 'Team hook', url: `${receiverBase}/hooks/team`, events: ['team.member-joined'] },
    });
    expect(hook.status, hook.text).toBe(200);
    receiver.setSecret(hook.body.secret as string);
    const link = await server.call('POST', `/api/teams/${team.body.id}/invitations`, {
      token: owner.token,
      body: { role: 'moderator' },
    });
    const newcomer = await registerUser(server);
    await server.call('POST', '/api/teams/join', { token: newcomer.token, body: { token: link.body.token } });

    await receiver.until(() => receiver.accepted.some((delivery) => delivery.url === '/hooks/team'));
    const delivered = receiver.accepted.find((delivery) => delivery.url === '/hooks/team')!;
    expect(JSON.parse(delivered.body)).toMatchObject({
      type: 'team.member-joined',
      data: { username: newcomer.user.username, role: 'moderator', change: 'joined' },
    });
  });

  it('refuses bad input with a 400 naming the problem, storing nothing', async () => {
    const { token } = await registerUser(server);
    const cases: [unknown, string][] = [
      [
        { kind: 'discord', name: 'D', url: 'https://discord.com/api/webhooks/123/abc', events: ['run.failed'] },
        NOTIFICATION_ERRORS.discordUrlInvalid,
      ],
      [
        {
          kind: 'discord',
          name: 'D',
          url: 'https://evil.example.com/api/webhooks/123456789012345678/' + 'a'.repeat(68),
          events: ['run.failed'],
        },
        NOTIFICATION_ERRORS.discordUrlInvalid,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'http://hooks.example.com/x', events: ['run.failed'] },
        NOTIFICATION_ERRORS.webhookUrlInvalid,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://10.0.0.7/x', events: ['run.failed'] },
        NOTIFICATION_ERRORS.webhookUrlNotAllowed,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://[::1]/x', events: ['run.failed'] },
        NOTIFICATION_ERRORS.webhookUrlNotAllowed,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://169.254.169.254/latest/meta-data', events: ['run.failed'] },
        NOTIFICATION_ERRORS.webhookUrlNotAllowed,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://localhost/x', events: ['run.failed'] },
        NOTIFICATION_ERRORS.webhookUrlNotAllowed,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://hooks.example.com/x', events: ['player.exploded'] },
        'events: each must be one of',
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://hooks.example.com/x', events: [] },
        NOTIFICATION_ERRORS.eventsRequired,
      ],
      [
        { kind: 'webhook', name: 'W', url: 'https://hooks.example.com/x', events: ['run.failed'], secret: 'short' },
        NOTIFICATION_ERRORS.secretTooShort,
      ],
      [
        { kind: 'discord', name: 'D', url: discordUrl().url, events: ['run.failed'], secret: 'a'.repeat(20) },
        NOTIFICATION_ERRORS.secretNotForDiscord,
      ],
      [
        { kind: 'slack', name: 'S', url: 'https://hooks.example.com/x', events: ['run.failed'] },
        'kind: must be discord or webhook',
      ],
    ];
    for (const [body, error] of cases) {
      const res = await create(token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error as string, JSON.stringify(body)).toContain(error);
    }
    expect(await list(token)).toEqual([]);

    for (let i = 0; i < NOTIFICATION_DESTINATIONS_PER_USER; i++) {
      const res = await create(token, {
        kind: 'webhook',
        name: `W${i}`,
        url: 'https://hooks.example.com/x',
        events: ['run.failed'],
      });
      expect(res.status, res.text).toBe(200);
    }
    const extra = await create(token, {
      kind: 'webhook',
      name: 'One too many',
      url: 'https://hooks.example.com/x',
      events: ['run.failed'],
    });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ error: NOTIFICATION_ERRORS.tooMany });
    expect(await list(token)).toHaveLength(NOTIFICATION_DESTINATIONS_PER_USER);
  });

  it('refuses a webhook URL whose IPv6 address carries a refused IPv4 address, naming it', async () => {
    const { token } = await registerUser(server);
    const cases: [url: string, named: string][] = [
      // The URL parser writes this one as [::7f00:1].
      ['https://[::127.0.0.1]/x', '127.0.0.1'],
      ['https://[64:ff9b::127.0.0.1]/x', '127.0.0.1'],
      ['https://[64:ff9b::a9fe:a9fe]/x', '169.254.169.254'],
      ['https://[::ffff:0:127.0.0.1]/x', '127.0.0.1'],
      ['https://[2002:7f00:1::]/x', '127.0.0.1'],
      ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x', 'Teredo'],
    ];
    for (const [url, named] of cases) {
      const res = await create(token, { kind: 'webhook', name: 'W', url, events: ['run.failed'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body), url).toEqual(['error']);
      expect(res.body.error as string, url).toContain(NOTIFICATION_ERRORS.webhookUrlNotAllowed);
      expect(res.body.error as string, url).toContain(named);
    }
    expect(await list(token)).toEqual([]);
    // A public IPv4 address behind the NAT64 prefix is what DNS64 answers on an IPv6-only network.
    const nat64 = await create(token, {
      kind: 'webhook',
      name: 'W',
      url: 'https://[64:ff9b::93.184.215.14]/x',
      events: ['run.failed'],
    });
    expect(nat64.status, nat64.text).toBe(200);
  });

  it('signs generic deliveries so the receiver verifies them and refuses a replay', async () => {
    const { token } = await registerUser(server);
    const webhook = await newWebhook(token);
    const before = receiver.accepted.length;
    const eventId = await sendTest(token, webhook.id);
    await receiver.until(() => receiver.accepted.length > before);
    const delivery = receiver.accepted.at(-1)!;
    expect(delivery.headers['moonrelay-event']).toBe('test');
    expect(delivery.headers['moonrelay-event-id']).toBe(eventId);
    expect(String(delivery.headers['moonrelay-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(delivery.body)).toMatchObject({ id: eventId, type: 'test', url: `${PUBLIC_URL}/settings` });

    expect(await receiver.replay(`${receiverBase}/hooks/moonrelay`, delivery)).toBe(400);
    expect(receiver.all.at(-1)).toMatchObject({ status: 400 });
    // A body changed in transit does not verify either.
    expect(
      await receiver.replay(`${receiverBase}/hooks/moonrelay`, {
        ...delivery,
        body: delivery.body.replace('test', 'tost'),
      }),
    ).toBe(400);

    const log = await logWhen(token, webhook.id, (entries) => entries.some((a) => a.eventId === eventId));
    expect(log[0]).toMatchObject({ eventId, event: 'test', status: 200, error: null, answer: 'ok: delivery accepted' });
    expect(log[0]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('retries a failed delivery with backoff under the same event id, and redelivers on request', async () => {
    const { token } = await registerUser(server);
    const webhook = await newWebhook(token);
    receiver.failNext(503, 500);
    const eventId = await sendTest(token, webhook.id);
    await receiver.until(() => receiver.accepted.some((d) => d.headers['moonrelay-event-id'] === eventId));
    const tries = receiver.all.filter((d) => d.headers['moonrelay-event-id'] === eventId);
    expect(tries.map((d) => d.status)).toEqual([503, 500, 200]);
    // Backoff: the second wait is drawn from twice the first one's range (200 ms base: 100–200, then 200–400).
    expect(tries[1]!.atMs - tries[0]!.atMs).toBeGreaterThanOrEqual(100);
    expect(tries[2]!.atMs - tries[1]!.atMs).toBeGreaterThanOrEqual(200);
    const log = await logWhen(
      token,
      webhook.id,
      (entries) => entries.filter((a) => a.eventId === eventId).length === 3,
    );
    expect(log.map((a) => a.status)).toEqual([200, 500, 503]);
    expect(log[1]!.answer).toBe('failing on purpose with 500');

    const again = await server.call(
      'POST',
      `/api/notifications/destinations/${webhook.id}/events/${eventId}/redeliver`,
      { token },
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ eventId });
    await receiver.until(
      () => receiver.accepted.filter((d) => d.headers['moonrelay-event-id'] === eventId).length === 2,
    );

    const unknown = await server.call('POST', `/api/notifications/destinations/${webhook.id}/events/nope/redeliver`, {
      token,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: NOTIFICATION_ERRORS.eventNotFound });
  });

  it('delivers to Discord in order, exactly once, paced by the rate-limit headers and 429 retry_after', async () => {
    const { token } = await registerUser(server);
    const hook = discordUrl();
    const res = await create(token, { kind: 'discord', name: 'Ops', url: hook.url, events: ['run.failed'] });
    expect(res.status, res.text).toBe(200);
    const userId = (await server.call('GET', '/api/user', { token })).body.id as string;
    discord.force429(hook.id, 0.4);
    const titles = Array.from({ length: 8 }, (_, i) => `Event ${i + 1}`);
    for (const title of titles)
      server.app.services.notifier.raise(userId, () => ({
        kind: 'run.failed',
        title,
        description: 'd',
        path: '/runs',
        fields: [],
        data: {},
      }));
    const ours = () => discord.hits.filter((hit) => hit.webhookId === hook.id);
    await discord.until(() => ours().filter((hit) => hit.status === 204).length === titles.length);
    const delivered = ours().filter((hit) => hit.status === 204);
    expect(delivered.map((hit) => hit.body.embeds[0].title)).toEqual(titles);
    // The first answer was a forced 429: nothing came before its retry_after had passed.
    expect(ours()[0]!.status).toBe(429);
    expect(ours()[1]!.atMs - ours()[0]!.atMs).toBeGreaterThanOrEqual(400);
    // After that, the bucket's headers were read: no message came while it was empty.
    expect(
      ours()
        .slice(1)
        .filter((hit) => hit.status === 429),
    ).toEqual([]);
    expect(delivered[0]!.body.embeds[0]).toMatchObject({
      color: DISCORD_COLOURS['run.failed'],
      url: `${PUBLIC_URL}/runs`,
    });
  });

  it('cuts an oversized Discord message with an ellipsis instead of having it refused', async () => {
    const { token } = await registerUser(server);
    const hook = discordUrl();
    await create(token, { kind: 'discord', name: 'Big', url: hook.url, events: ['run.failed'] });
    const userId = (await server.call('GET', '/api/user', { token })).body.id as string;
    server.app.services.notifier.raise(userId, () => ({
      kind: 'run.failed',
      title: 'T'.repeat(400),
      description: 'D'.repeat(9000),
      path: '/runs',
      fields: Array.from({ length: 30 }, (_, i) => ({ name: `Field ${i}`, value: 'v'.repeat(2000) })),
      data: {},
    }));
    await discord.until(() => discord.hits.some((hit) => hit.webhookId === hook.id));
    const hit = discord.hits.find((h) => h.webhookId === hook.id)!;
    expect(hit.status).toBe(204);
    const embed = hit.body.embeds[0];
    expect(embed.title).toHaveLength(DISCORD_LIMITS.title);
    expect(embed.title.endsWith('…')).toBe(true);
    expect(embed.description.endsWith('…')).toBe(true);
  });

  it('pauses a destination whose Discord webhook was deleted, and resumes it', async () => {
    const { token } = await registerUser(server);
    const hook = discordUrl();
    const created = (await create(token, { kind: 'discord', name: 'Gone', url: hook.url, events: ['run.failed'] }))
      .body as NotificationDestination;
    discord.remove(hook.id);
    const eventId = await sendTest(token, created.id);
    await discord.until(() => discord.hits.some((hit) => hit.webhookId === hook.id && hit.status === 404));
    const log = await logWhen(token, created.id, (entries) => entries.length === 1);
    expect(log[0]).toMatchObject({ eventId, status: 404 });
    let paused: NotificationDestination | undefined;
    while (!paused?.pausedAt) paused = (await list(token)).find((d) => d.id === created.id);
    expect(paused.pausedReason).toContain('404');
    // Paused: no more sends to the deleted webhook.
    const hits = discord.hits.length;
    const userId = (await server.call('GET', '/api/user', { token })).body.id as string;
    server.app.services.notifier.raise(userId, () => ({
      kind: 'run.failed',
      title: 'x',
      description: 'y',
      path: '/runs',
      fields: [],
      data: {},
    }));
    await server.app.services.notifier.settle();
    await server.app.services.notificationDelivery.sweep();
    expect(discord.hits.length).toBe(hits);

    const resumed = await server.call('PUT', `/api/notifications/destinations/${created.id}`, {
      token,
      body: { paused: false },
    });
    expect(resumed.body).toMatchObject({ pausedAt: null, pausedReason: null, failuresInRow: 0 });
  });

  it('tells one message for a burst of 300 game servers connecting', async () => {
    const { token, user } = await registerUser(server);
    const webhook = await newWebhook(token, ['server.connected']);
    const before = receiver.accepted.length;
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        server.call('POST', '/api/game/ping', { body: { key: user.apiKey, serverId: `srv-${i}` } }),
      ),
    );
    server.app.services.notificationSources.flush();
    await receiver.until(() => receiver.accepted.length > before);
    const bodies = receiver.accepted.slice(before).map((d) => JSON.parse(d.body));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      type: 'server.connected',
      title: '300 game servers connected',
      data: { count: 300 },
    });
    expect(webhook.events).toEqual(['server.connected']);
  });

  it('tells a regenerated API key, by the user or by an admin, and not a scoped key made or revoked', async () => {
    const { token, user } = await registerUser(server);
    await newWebhook(token, ['api-key.regenerated']);
    const before = receiver.accepted.length;
    // A scoped key made and revoked changes the user's keys, but regenerates nothing.
    const scoped = await server.call('POST', '/api/user/api-keys', {
      token,
      body: { name: 'CI', scopes: ['scripts:read'] },
    });
    expect(scoped.status, scoped.text).toBe(200);
    expect((await server.call('DELETE', `/api/user/api-keys/${scoped.body.id}`, { token })).status).toBe(200);
    const res = await server.call('POST', '/api/user/regenerate-key', { token });
    expect(res.status, res.text).toBe(200);
    await receiver.until(() => receiver.accepted.length > before);
    const admin = await registerUser(server);
    await server.app.database.db.updateTable('users').set({ isAdmin: 1 }).where('id', '=', admin.user.id).execute();
    const byAdmin = await server.call('POST', `/api/admin/users/${user.id}/regenerate-key`, { token: admin.token });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    await receiver.until(() => receiver.accepted.length > before + 1);
    const told = receiver.accepted.slice(before).map((d) => JSON.parse(d.body));
    expect(told).toEqual([
      expect.objectContaining({ type: 'api-key.regenerated', description: expect.stringMatching(/^Your personal/) }),
      expect.objectContaining({ type: 'api-key.regenerated', description: expect.stringMatching(/^An admin/) }),
    ]);
  });

  it('tells a failed run and a sign-in from a new address', async () => {
    const { token, input } = await registerUser(server);
    await newWebhook(token, ['run.failed', 'sign-in.new-address']);
    const before = receiver.accepted.length;
    const run = await server.call('POST', '/api/scripts/execute', {
      token,
      body: { code: 'error("boom")', target: 'sandbox' },
    });
    expect(run.status, run.text).toBe(200);
    await receiver.until(() => receiver.accepted.length > before);
    expect(JSON.parse(receiver.accepted.at(-1)!.body)).toMatchObject({
      type: 'run.failed',
      title: 'Run of Custom code failed',
    });

    const signIn = (address: string) =>
      server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: input.email, password: input.password },
        headers: { 'x-forwarded-for': address },
      });
    expect((await signIn('198.51.100.7')).status).toBe(200);
    expect((await signIn('198.51.100.7')).status).toBe(200);
    const afterKnown = receiver.accepted.length;
    expect((await signIn('203.0.113.99')).status).toBe(200);
    await receiver.until(() => receiver.accepted.length > afterKnown);
    const told = receiver.accepted.slice(before + 1).map((d) => JSON.parse(d.body));
    // The first address is remembered silently; the same one again says nothing; a new one is told once.
    expect(told).toEqual([expect.objectContaining({ type: 'sign-in.new-address', data: { address: '203.0.113.99' } })]);
  });

  it('tells the admin who started a mass execution that it finished, with how its parts ended', async () => {
    const admin = await registerUser(server);
    await server.app.database.db.updateTable('users').set({ isAdmin: 1 }).where('id', '=', admin.user.id).execute();
    await newWebhook(admin.token, ['mass-execution.finished']);
    const connected = await registerUser(server);
    const offline = await registerUser(server);
    const game = new SimulatedGame({ url: server.url, key: connected.user.apiKey, serverId: 'mass-told-1', wait: 5 });
    await game.ping({ wait: 0 });
    game.start();
    const before = receiver.accepted.length;
    try {
      const res = await server.call('POST', '/api/admin/mass-execution', {
        token: admin.token,
        body: { userIds: [connected.user.id, offline.user.id, 'no-such-user'], code: 'print("all")' },
      });
      expect(res.status, res.text).toBe(200);
      await receiver.until(() => receiver.accepted.length > before);
      const told = JSON.parse(receiver.accepted.at(-1)!.body);
      expect(told).toMatchObject({
        type: 'mass-execution.finished',
        title: 'Mass execution finished: 3 users',
        url: `${PUBLIC_URL}/admin?tab=mass`,
        data: { batchId: res.body.batchId, kind: 'code', counts: { succeeded: 1, not_connected: 1, failed: 1 } },
      });
      expect(told.description).toMatch(/: 1 succeeded, 1 failed, 1 not connected\.$/);
    } finally {
      await game.stop();
    }
  });

  it('deliveries waiting on a receiver that never answers do not hold up the job queue', async () => {
    // Twenty requests left open: in the job queue they would take more slots than it has.
    const held = new Set<http.ServerResponse>();
    const allHeld = { wanted: 0, resolve: () => {} };
    const silent = http.createServer((req, res) => {
      held.add(res);
      res.on('close', () => held.delete(res));
      if (held.size === allHeld.wanted) allHeld.resolve();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const admin = await registerUser(server);
    await server.app.database.db.updateTable('users').set({ isAdmin: 1 }).where('id', '=', admin.user.id).execute();
    const ids: string[] = [];
    try {
      for (let i = 0; i < NOTIFICATION_DESTINATIONS_PER_USER; i++) {
        const res = await create(admin.token, {
          kind: 'webhook',
          name: `Silent ${i}`,
          url: `${silentBase}/hooks/${i}`,
          events: ['run.failed'],
        });
        expect(res.status, res.text).toBe(200);
        ids.push(res.body.id as string);
      }
      const everyOneOpen = new Promise<void>((resolve) => Object.assign(allHeld, { wanted: ids.length, resolve }));
      const run = await server.call('POST', '/api/scripts/execute', {
        token: admin.token,
        body: { code: 'error("tell everyone")', target: 'sandbox' },
      });
      expect(run.status, run.text).toBe(200);
      await everyOneOpen;

      // A mass execution (a job per user) runs while all twenty wait.
      const offline = await registerUser(server);
      let finished: (batchId: string) => void = () => {};
      const finishedBatch = new Promise<string>((resolve) => (finished = resolve));
      const unsubscribe = server.app.services.bus.subscribe((event) => {
        if (event.type === 'mass:finished') finished(event.batch.batchId);
      });
      try {
        const mass = await server.call('POST', '/api/admin/mass-execution', {
          token: admin.token,
          body: { userIds: [offline.user.id], command: { type: 'heal' } },
        });
        expect(mass.status, mass.text).toBe(200);
        expect(await finishedBatch).toBe(mass.body.batchId);
      } finally {
        unsubscribe();
      }
      expect(held.size).toBe(ids.length);
    } finally {
      for (const id of ids)
        await server.call('DELETE', `/api/notifications/destinations/${id}`, { token: admin.token });
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  /**
   * Resolves once this user's console lines are published, which opens their error burst (the
   * notification sources see each event as it is published, before any subscriber): only then
   * does flushing raise it.
   */
  const consoleLinesPublished = (userId: string) =>
    new Promise<void>((resolve) => {
      const stop = server.app.services.bus.subscribe((event) => {
        if (event.type !== 'console:lines' || event.userId !== userId) return;
        stop();
        resolve();
      });
    });

  it('tells a burst of console errors as one message with the first error and the count', async () => {
    const { token, user } = await registerUser(server);
    await newWebhook(token, ['console.error-burst']);
    const before = receiver.accepted.length;
    const lines = Array.from({ length: 40 }, (_, i) => ({
      time: Date.now(),
      level: 'error',
      text: `attempt to index nil ${i}`,
      script: 'ServerScriptService.Main',
    }));
    // Lines are stored (and published) behind the ping.
    const published = consoleLinesPublished(user.id);
    const ping = await server.call('POST', '/api/game/ping', {
      body: { key: user.apiKey, serverId: 'errs-1', console: { lines } },
    });
    expect(ping.status, ping.text).toBe(200);
    await published;
    server.app.services.notificationSources.flush();
    await receiver.until(() => receiver.accepted.length > before);
    const bodies = receiver.accepted.slice(before).map((d) => JSON.parse(d.body));
    expect(bodies).toEqual([
      expect.objectContaining({
        type: 'console.error-burst',
        title: '40 errors in the console',
        data: expect.objectContaining({
          count: 40,
          first: expect.objectContaining({ text: 'attempt to index nil 0' }),
        }),
      }),
    ]);
  });

  it('sends a console line to Discord as plain text with no mentions, and raw to a signed webhook', async () => {
    const { token, user } = await registerUser(server);
    const hook = discordUrl();
    const res = await create(token, { kind: 'discord', name: 'Ops', url: hook.url, events: ['console.error-burst'] });
    expect(res.status, res.text).toBe(200);
    await newWebhook(token, ['console.error-burst']);
    const before = receiver.accepted.length;
    const text = '[Verify your account](https://evil.example) @everyone <@123> **now**';
    const published = consoleLinesPublished(user.id);
    const ping = await server.call('POST', '/api/game/ping', {
      body: {
        key: user.apiKey,
        serverId: 'srv_md_1',
        console: { lines: [{ time: Date.now(), level: 'error', text, script: 'ServerScriptService.__init__' }] },
      },
    });
    expect(ping.status, ping.text).toBe(200);
    await published;
    server.app.services.notificationSources.flush();
    await discord.until(() => discord.hits.some((hit) => hit.webhookId === hook.id && hit.status === 204));
    await receiver.until(() => receiver.accepted.length > before);

    const sent = discord.hits.find((hit) => hit.webhookId === hook.id && hit.status === 204)!.body;
    expect(sent.embeds[0].description).toBe(
      'First, on srv\\_md\\_1 in ServerScriptService.\\_\\_init\\_\\_: ' +
        '\\[Verify your account\\](https:\u200b//evil.example) @\u200beveryone \\<@123> \\*\\*now\\*\\*',
    );
    expect(sent.allowed_mentions).toEqual({ parse: [] });
    expect(sent.embeds[0].fields).toContainEqual({ name: 'Server', value: 'srv\\_md\\_1', inline: true });

    const signed = JSON.parse(receiver.accepted.at(-1)!.body);
    expect(signed.description).toBe(`First, on srv_md_1 in ServerScriptService.__init__: ${text}`);
    expect(signed.data.first).toMatchObject({ serverId: 'srv_md_1', text, script: 'ServerScriptService.__init__' });
  });

  it('keeps an event through a restart in the middle of its delivery, with the same event id', async () => {
    const { token } = await registerUser(server);
    const webhook = await newWebhook(token);
    receiver.holdNext();
    const eventId = await sendTest(token, webhook.id);
    await receiver.until(() => receiver.holding);
    // The process goes down while the receiver holds the request: the connection drops unanswered.
    const stopping = server.stop();
    receiver.release('drop');
    await stopping;
    await server.start();
    await receiver.until(() => receiver.accepted.some((d) => d.headers['moonrelay-event-id'] === eventId));
    expect(receiver.accepted.filter((d) => d.headers['moonrelay-event-id'] === eventId)).toHaveLength(1);
  });
});
