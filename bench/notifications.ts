/**
 * Notifications benchmark: `npm run bench -- notifications [--events 100000] [--rounds 5]
 * [--destinations 1000] [--rate 10] [--seconds 20]`.
 *
 * 1. What raising an event costs the code that raises it: publishing a bus event notifications
 *    hear (a failed run) and a game server's ping noting its presence, through the app's bus and
 *    server changes with notifications on (each user has destinations) against the same calls with
 *    notifications off (the bus and server changes underneath, never seen by notifications), in the
 *    same run. Reports the median per event of `--rounds` rounds of `--events` events each, and the
 *    cost notifications add. The raising users have no destinations, so the events (a million in
 *    the default run) are looked up and dropped rather than delivered: the raiser's side is the same.
 * 2. Delivery: `--destinations` signed webhook destinations (20 per user) on a local receiver,
 *    `--rate` events a second in all for `--seconds`, each to all of its user's destinations.
 *    Reports deliveries, delivery latency (event raised to receiver answered) p50/p99, and lost or
 *    duplicated events.
 *
 * Runs the app in this process on SQLite (a fresh data folder), as `npm start` does.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp, type MoonrelayApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { createLogger } from '../server/src/logger.ts';
import type { BusEvent } from '../server/src/platform/event-bus.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

function perEventUs(events: number, work: (i: number) => void): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < events; i++) work(i);
  return Number(process.hrtime.bigint() - started) / 1000 / events;
}

function failedRun(userId: string, i: number): BusEvent {
  return {
    type: 'execution:updated',
    userId,
    run: {
      id: `run-${i}`,
      scriptId: null,
      scriptName: null,
      scriptVersion: null,
      target: 'sandbox',
      serverId: null,
      status: 'failed',
      limitHit: null,
      durationMs: 3,
      startedBy: 'user',
      actorId: null,
      actorName: null,
      keyName: null,
      createdAt: new Date().toISOString(),
    },
  };
}

async function raiserCost(app: MoonrelayApp, userIds: string[], events: number, rounds: number) {
  const { services } = app;
  const on = services.bus;
  const off = services.platform.bus;
  // Nothing subscribes in this process: the cost measured is the publish path itself.
  const busOn: number[] = [];
  const busOff: number[] = [];
  const pingOn: number[] = [];
  const pingOff: number[] = [];
  const presence = (i: number) => ({
    userId: userIds[i % userIds.length]!,
    serverId: `srv-${i % 5000}`,
    gameData: null,
    lastPingMs: 1_000 + i,
    // Every 50th ping connects a server (notifications note it for the burst message).
    connectedAtMs: i % 50 === 0 ? 1_000 + i : 0,
  });
  for (let round = 0; round < rounds; round++) {
    busOff.push(perEventUs(events, (i) => off.publish(failedRun(userIds[i % userIds.length]!, i))));
    busOn.push(perEventUs(events, (i) => on.publish(failedRun(userIds[i % userIds.length]!, i))));
    pingOff.push(perEventUs(events, (i) => services.serverChanges.pinged(presence(i))));
    pingOn.push(
      perEventUs(events, (i) => {
        const p = presence(i);
        services.notificationSources.serverPinged(p);
        services.serverChanges.pinged(p);
      }),
    );
    // What was raised is stored before the next round, so rounds do not pile up.
    await services.notifier.settle();
  }
  services.notificationSources.flush();
  return { busOn: median(busOn), busOff: median(busOff), pingOn: median(pingOn), pingOff: median(pingOff) };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      events: { type: 'string' },
      rounds: { type: 'string' },
      destinations: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
    },
  });
  const events = values.events ? positiveInteger('--events', values.events) : 100_000;
  const rounds = values.rounds ? positiveInteger('--rounds', values.rounds) : 5;
  const destinations = values.destinations ? positiveInteger('--destinations', values.destinations) : 1000;
  const rate = values.rate ? positiveInteger('--rate', values.rate) : 10;
  const seconds = values.seconds ? positiveInteger('--seconds', values.seconds) : 20;
  const perUser = 20;
  const users = Math.ceil(destinations / perUser);

  // The receiver: answers 200 and notes when each (event, destination) arrived.
  const arrived = new Map<string, number>();
  let duplicates = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; occurredAt: string };
      const key = `${body.id} ${req.url}`;
      if (arrived.has(key)) duplicates++;
      else arrived.set(key, Date.now() - Date.parse(body.occurredAt));
      res.writeHead(200);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-bench-notify-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    NOTIFY_ALLOWED_HOSTS: '127.0.0.1',
    PUBLIC_URL: 'https://moonrelay.example.com',
  });
  const app = await buildApp(config, createLogger('warn'));
  try {
    const userIds: string[] = [];
    for (let u = 0; u < users; u++) {
      const { user } = await app.services.accounts.register(
        {
          email: `notify${u}@example.com`,
          username: `notify${u}`,
          name: `Notify ${u}`,
          password: 'bench-password-123',
        },
        { address: '127.0.0.1', userAgent: 'bench' },
      );
      userIds.push(user.id);
      for (let d = 0; d < perUser && u * perUser + d < destinations; d++)
        await app.services.notifications.create(user.id, {
          kind: 'webhook',
          name: `Receiver ${d}`,
          url: `http://127.0.0.1:${receiverPort}/u${u}/d${d}`,
          events: ['run.failed', 'server.connected'],
        });
    }

    const quietIds: string[] = [];
    for (let u = 0; u < 10; u++) {
      const { user } = await app.services.accounts.register(
        {
          email: `quiet${u}@example.com`,
          username: `quiet${u}`,
          name: `Quiet ${u}`,
          password: 'bench-password-123',
        },
        { address: '127.0.0.1', userAgent: 'bench' },
      );
      quietIds.push(user.id);
    }
    console.log(`Raising events: ${rounds} rounds of ${fmt(events, 0)} events, medians per event`);
    const cost = await raiserCost(app, quietIds, events, rounds);
    console.log(
      `  bus publish (failed run)     off ${fmt(cost.busOff, 3)} us   on ${fmt(cost.busOn, 3)} us   added ${fmt(cost.busOn - cost.busOff, 3)} us (x${fmt(cost.busOn / cost.busOff, 2)})`,
    );
    console.log(
      `  game ping (presence noted)   off ${fmt(cost.pingOff, 3)} us   on ${fmt(cost.pingOn, 3)} us   added ${fmt(cost.pingOn - cost.pingOff, 3)} us (x${fmt(cost.pingOn / cost.pingOff, 2)})`,
    );
    await app.services.notifier.settle();

    const total = rate * seconds;
    console.log(
      `Delivery: ${fmt(destinations, 0)} destinations (${perUser} per user), ${rate} events/s in all for ${seconds} s`,
    );
    const started = Date.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      app.services.bus.publish(failedRun(userIds[i % userIds.length]!, i));
    }
    const expected = Array.from({ length: total }, (_, i) =>
      Math.min(perUser, destinations - (i % userIds.length) * perUser),
    ).reduce((a, b) => a + b, 0);
    const deadline = Date.now() + 120_000;
    while (arrived.size < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const latencies = [...arrived.values()];
    const failedAttempts = await app.database.db
      .selectFrom('notificationAttempts')
      .select(['error', (eb) => eb.fn.countAll<number>().as('count')])
      .where('error', 'is not', null)
      .groupBy('error')
      .execute();
    for (const row of failedAttempts) console.log(`  failed attempts (retried): ${row.count} × ${row.error}`);

    console.log(
      `  deliveries ${fmt(arrived.size, 0)} of ${fmt(expected, 0)}   lost ${fmt(expected - arrived.size, 0)}   duplicated ${duplicates}`,
    );
    console.log(
      `  latency p50 ${fmt(percentile(latencies, 0.5), 0)} ms   p99 ${fmt(percentile(latencies, 0.99), 0)} ms   max ${fmt(Math.max(...latencies), 0)} ms`,
    );
    console.log(
      `RESULT ${JSON.stringify({ raise: cost, deliveries: arrived.size, expected, duplicates, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) })}`,
    );
  } finally {
    await app.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
