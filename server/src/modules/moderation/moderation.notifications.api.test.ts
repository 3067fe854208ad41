import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeliveredCommand } from '@moonrelay/contract/game';
import { describeOnSQLite } from '../../../test/engines.ts';
import { fakeDiscord } from '../../../test/fake-discord.ts';
import { fakeWebhookReceiver } from '../../../test/fake-webhook-receiver.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { DISCORD_COLOURS } from '../notifications/discord-message.ts';

/** What a moderation action tells the owner's notification destinations once its outcome is known. */
describeOnSQLite('moderation notifications', (engine) => {
  let server: TestServer;
  const discord = fakeDiscord();
  const receiver = fakeWebhookReceiver();
  let discordBase = '';
  let receiverBase = '';
  beforeAll(async () => {
    discordBase = await discord.start();
    receiverBase = await receiver.start();
    server = await startTestServer(engine, { NOTIFY_ALLOWED_HOSTS: '127.0.0.1', NOTIFY_DISCORD_ORIGINS: discordBase });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await discord.stop();
    await receiver.stop();
  });

  it('tells a kick, a warning and a ban, each as its own event, with Roblox’s error when one failed', async () => {
    const { token, user } = await registerUser(server);
    const hook = await server.call('POST', '/api/notifications/destinations', {
      token,
      body: {
        kind: 'webhook',
        name: 'Moderation log',
        url: `${receiverBase}/hooks/moderation`,
        events: ['player.kicked', 'player.warned', 'player.banned', 'player.unbanned'],
      },
    });
    expect(hook.status, hook.text).toBe(200);
    receiver.setSecret(hook.body.secret as string);
    const webhookId = String(100000000000000000n + BigInt(Math.floor(Math.random() * 1e9)));
    const discordHook = await server.call('POST', '/api/notifications/destinations', {
      token,
      body: {
        kind: 'discord',
        name: 'Mods',
        url: `${discordBase}/api/webhooks/${webhookId}/${crypto.randomBytes(51).toString('base64url')}`,
        events: ['player.banned'],
      },
    });
    expect(discordHook.status, discordHook.text).toBe(200);

    const ping = async (results: unknown[] = []) => {
      const res = await server.call('POST', '/api/game/ping', {
        body: {
          key: user.apiKey,
          serverId: 'srv-n',
          results,
          roster: {
            count: 2,
            players: [
              { userId: 81, name: 'Eighty' },
              { userId: 82, name: 'Eightytwo' },
            ],
          },
        },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.commands as DeliveredCommand[];
    };
    await ping();
    const before = receiver.accepted.length;
    expect((await server.call('POST', '/api/players/81/kick', { token, body: { message: 'Out' } })).status).toBe(200);
    expect(
      (await server.call('POST', '/api/players/82/warnings', { token, body: { message: 'Careful' } })).status,
    ).toBe(200);
    expect(
      (
        await server.call('POST', '/api/players/82/ban', {
          token,
          body: { durationSeconds: 60, displayReason: 'Cheating' },
        })
      ).status,
    ).toBe(200);
    let commands: DeliveredCommand[] = [];
    await expect.poll(async () => (commands = [...commands, ...(await ping())]).length).toBe(3);
    const results = commands.map((command) =>
      command.type === 'ban'
        ? {
            id: command.id,
            success: true,
            output: JSON.stringify({ applied: [], failed: { 82: 'HTTP 403 (Forbidden)' } }),
          }
        : { id: command.id, success: true, output: '' },
    );
    await ping(results);
    await receiver.until(() => receiver.accepted.length >= before + 3);
    const events = receiver.accepted.slice(before).map((delivery) => JSON.parse(delivery.body));
    expect(events.map((event) => [event.type, event.title]).sort()).toEqual([
      ['player.banned', 'Eightytwo could not be banned'],
      ['player.kicked', 'Eighty was kicked'],
      ['player.warned', 'Eightytwo was warned'],
    ]);
    expect(events.find((event) => event.type === 'player.banned')).toMatchObject({
      description: 'Roblox answered: HTTP 403 (Forbidden)',
      data: { userId: 82, state: 'failed', error: 'HTTP 403 (Forbidden)', path: 'game', reason: 'Cheating' },
    });
    await discord.until(() => discord.hits.some((hit) => hit.webhookId === webhookId && hit.status === 204));
    const embed = discord.hits.find((hit) => hit.webhookId === webhookId)!.body.embeds[0];
    expect(embed).toMatchObject({ title: 'Eightytwo could not be banned', color: DISCORD_COLOURS['player.banned'] });
  });
});
