/**
 * Cloud runs benchmark: `npm run bench -- cloud-runs [--tasks 1000] [--rounds 5] [--limited-seconds 70]`.
 *
 * What the server pays to follow `--tasks` running cloud tasks of one owner (Roblox holds them:
 * `--@fake:hold`), against the fake of Roblox's Luau Execution API (server/test/fake-open-cloud.ts)
 * run in a child process, so the CPU measured here is Moonrelay's alone (its rounds, its HTTP
 * client, its SQLite writes):
 *
 * 1. Roblox's limits raised (1,000,000 reads a minute), so every task is read in every round: CPU
 *    ms per poll (process.cpuUsage around whole rounds, over the tasks polled), the median of
 *    `--rounds` rounds, beside the baseline measured in the same run: the two bare HTTP calls a poll
 *    makes (the task, its logs), sent with the same fetch to the same fake. Also the first poll of
 *    each task (it starts running and its first line is kept), an empty round (no task), and the
 *    process's RSS and heap (after a full GC) with `--tasks` tasks running against none.
 * 2. Roblox's real limits (200 task reads and 45 log reads a minute per key owner, its 60 s window)
 *    for `--limited-seconds`, a second owner's `--tasks` tasks followed as the sweep does (a round
 *    each second the owner has work due): the calls made in any 60 s against the limits, the 429s
 *    answered, how many of the tasks were read at all, and the CPU it costs.
 *
 * The app runs in this process on SQLite (a fresh data folder) and listens on 127.0.0.1; its own
 * follower creates the tasks, then stops, and the rounds measured are a follower's of the bench
 * (createCloudRuns, with the app's database, bus and console). Everything stops by itself.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import { buildApp, type MoonrelayApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { createLogger } from '../server/src/logger.ts';
import { createCloudRuns } from '../server/src/modules/cloud-runs/cloud-runs.ts';
import { cloudTasksRepo } from '../server/src/modules/cloud-runs/cloud-runs.repo.ts';
import { systemClock } from '../server/src/modules/open-cloud/clock.ts';
import type { JobQueue } from '../server/src/platform/job-queue.ts';
import { createSecretBox } from '../server/src/security/secret-box.ts';
import { loadServerSecret } from '../server/src/security/server-secret.ts';
import { fakeOpenCloud, type FakeLuauLimits, type FakeLuauStats } from '../server/test/fake-open-cloud.ts';
import { call, HOST } from './support/processes.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const UNIVERSE = '4700000001';
const MINUTE_MS = 60_000;
/** Roblox's documented limits of the Luau Execution API, per key owner and minute. */
const ROBLOX_LIMITS = { createsPerMinute: 5, readsPerMinute: 200, logReadsPerMinute: 45 };
const RAISED = { createsPerMinute: 1_000_000, readsPerMinute: 1_000_000, logReadsPerMinute: 1_000_000 };
/** How long creating the tasks may take before the benchmark gives up. */
const CREATE_DEADLINE_MS = 5 * MINUTE_MS;

// The fake in a child process: this file, started with FAKE_ROLE set, answers the parent's requests.
const FAKE_ROLE = 'MOONRELAY_BENCH_CLOUD_RUNS_FAKE';

type FakeRequest =
  | { op: 'start' }
  | { op: 'addKey'; apiKey: string; placeId: string }
  | { op: 'setLimits'; limits: Partial<FakeLuauLimits> }
  | { op: 'stats' }
  | { op: 'created'; apiKey: string }
  | { op: 'readTasks'; apiKey: string; from: number };

async function serveFake(): Promise<void> {
  const fake = fakeOpenCloud({
    luau: {
      limits: { ...RAISED, unfinishedPerPlace: 1_000_000 },
      // The tasks run at once and are held running (the benchmark never releases them).
      timing: { queuedMs: 0, processingMs: 0 },
    },
  });
  process.on('message', (message: FakeRequest & { id: number }) => {
    const answer = async (): Promise<unknown> => {
      switch (message.op) {
        case 'start':
          return fake.start();
        case 'addKey':
          fake.addKey(message.apiKey, UNIVERSE, [LUAU_EXECUTION_WRITE]);
          fake.luau.addPlace(UNIVERSE, message.placeId);
          return null;
        case 'setLimits':
          fake.luau.setLimits(message.limits);
          return null;
        case 'stats':
          return fake.luau.stats();
        case 'created':
          return fake.luau.tasks().filter((task) => task.apiKey === message.apiKey).length;
        case 'readTasks': {
          // The owner's tasks read (not their logs) since request number `from`, and the next number.
          const read = fake.requests
            .slice(message.from)
            .filter((request) => request.method === 'GET' && request.apiKey === message.apiKey)
            .map((request) => request.path)
            .filter((requested) => requested.includes('/tasks/') && !requested.endsWith('/logs'));
          return { distinct: new Set(read).size, next: fake.requests.length };
        }
      }
    };
    void answer().then((result) => process.send!({ id: message.id, result }));
  });
  process.on('disconnect', () => void fake.stop().then(() => process.exit(0)));
}

if (process.env[FAKE_ROLE] === '1') await serveFake();

function startFake() {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [FAKE_ROLE]: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  child.on('message', (message: { id: number; result: unknown }) => {
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  return {
    ask<T>(request: FakeRequest): Promise<T> {
      const id = ++next;
      return new Promise<T>((resolve) => {
        pending.set(id, resolve as (result: unknown) => void);
        child.send({ id, ...request });
      });
    },
    stop() {
      if (child.connected) child.disconnect();
    },
  };
}

/** A full garbage collection (V8's own, reached without --expose-gc on the command line). */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose_gc');
  return vm.runInNewContext('gc') as () => void;
})();

function memory() {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return { rssMb: usage.rss / 2 ** 20, heapMb: usage.heapUsed / 2 ** 20 };
}

/** CPU ms (user + system) this process spends on `work`, and its wall time. */
async function measured<T>(work: () => Promise<T>): Promise<{ cpuMs: number; wallMs: number; result: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const spent = process.cpuUsage(cpu);
  return { cpuMs: (spent.user + spent.system) / 1000, wallMs: performance.now() - started, result };
}

/** The bench's follower runs its rounds itself: it hands nothing out. */
const noJobs: JobQueue = {
  register: () => {},
  enqueue: async () => {},
  repeat: async () => {},
  stopRepeating: async () => {},
  request: () => Promise.reject(new Error('The benchmark hands no jobs out')),
  workerCount: async () => 'in-process',
  close: async () => {},
};

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { tasks: { type: 'string' }, rounds: { type: 'string' }, 'limited-seconds': { type: 'string' } },
  });
  const tasks = values.tasks ? positiveInteger('--tasks', values.tasks) : 1000;
  // Moonrelay keeps at most OPEN_CLOUD_UNFINISHED_PER_PLACE (1,000 at the most) unfinished per place.
  if (tasks > 1000) throw new Error('--tasks must be at most 1000 (the most unfinished tasks a place may be given)');
  const rounds = values.rounds ? positiveInteger('--rounds', values.rounds) : 5;
  const limitedSeconds = values['limited-seconds']
    ? positiveInteger('--limited-seconds', values['limited-seconds'])
    : 70;

  const fake = startFake();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-bench-cloud-'));
  let app: MoonrelayApp | undefined;
  let server: http.Server | undefined;
  try {
    const robloxUrl = await fake.ask<string>({ op: 'start' });
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://moonrelay.example.com',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '1000000',
      ROBLOX_OPEN_CLOUD_URL: robloxUrl,
      OPEN_CLOUD_UNFINISHED_PER_PLACE: String(tasks),
      // The app's own follower creates the tasks and reads them no sooner than a minute later.
      CLOUD_RUN_POLL_MS: '60000',
      // Held tasks are never given up on while the benchmark runs.
      CLOUD_RUN_MARGIN_MS: '3600000',
    });
    app = await buildApp(config, createLogger('warn'));
    const listening = http.createServer(app.requestListener);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, HOST, resolve));
    const base = `http://${HOST}:${(listening.address() as AddressInfo).port}`;
    const db = app.database.db;

    /** An account with a key of its own (an owner at Roblox) on a place of its own. */
    async function owner(name: string, index: number) {
      const auth = await call<{ token: string; user: { id: string } }>(base, 'POST', '/api/auth/register', {
        email: `${name}@example.com`,
        username: name,
        name,
        password: 'bench-password-123',
      });
      const apiKey = `rbx-bench-cloud-${name}-1234567890abcdefghijklmnop`;
      const placeId = String(4700000100 + index);
      await fake.ask({ op: 'addKey', apiKey, placeId });
      await call(base, 'PUT', '/api/open-cloud/key', { universeId: UNIVERSE, apiKey, placeId }, auth.token);
      return { token: auth.token, id: auth.user.id, apiKey };
    }
    const measuredOwner = await owner('cloudbench', 1);
    const limitedOwner = await owner('cloudlimited', 2);

    const follower = createCloudRuns({
      db,
      jobs: noJobs,
      box: createSecretBox(loadServerSecret(config.appSecret, config.dataDir), 'open-cloud-keys'),
      bus: app.services.bus,
      clock: systemClock,
      // A task running is due again a second after its poll, as often as the sweep comes.
      config: { ...config.openCloud, ...config.cloudRuns, pollMs: 1_000 },
      logger: createLogger('warn'),
      console: app.services.consoleLines,
      introspect: async () => null,
      onlyProcess: true,
    });
    const held = { keep: async () => {} };
    const stats = () => fake.ask<FakeLuauStats>({ op: 'stats' });
    /** Makes the owner's running tasks due now, as a second after their last poll. */
    const due = (ownerId: string) =>
      db
        .updateTable('cloudTasks')
        .set({ nextAttemptAt: new Date(Date.now() - 1).toISOString() })
        .where('ownerId', '=', ownerId)
        .where('state', '=', 'pending')
        .execute();

    // None running: an empty round, and the memory that is the baseline.
    const emptyRounds: number[] = [];
    for (let round = 0; round < rounds; round++)
      emptyRounds.push((await measured(() => follower.round(measuredOwner.id, held))).cpuMs);
    const idleMemory = memory();

    // The tasks, queued through the API and created by the app's own follower.
    console.log(`Creating ${fmt(tasks, 0)} held tasks for each of two owners through the API...`);
    const createStarted = Date.now();
    for (const account of [measuredOwner, limitedOwner]) {
      for (let first = 0; first < tasks; first += 25)
        await Promise.all(
          Array.from({ length: Math.min(25, tasks - first) }, (_, i) =>
            call(
              base,
              'POST',
              '/api/scripts/execute',
              { target: 'cloud', code: `--@fake:hold\nprint("task ${first + i}")`, timeoutSeconds: 300 },
              account.token,
            ),
          ),
        );
    }
    for (const account of [measuredOwner, limitedOwner])
      while ((await fake.ask<number>({ op: 'created', apiKey: account.apiKey })) < tasks) {
        if (Date.now() - createStarted > CREATE_DEADLINE_MS) throw new Error('The tasks were not all created in time');
        await sleep(250);
      }
    console.log(`  created in ${fmt((Date.now() - createStarted) / 1000, 1)} s`);
    await app.services.cloudRuns.stop();

    const rows = await cloudTasksRepo.pending(db, measuredOwner.id, tasks);
    const paths = rows.map((row) => row.taskPath!);
    /** The baseline: the two calls one poll makes, bare (the same fetch, URLs and key), for every task. */
    async function bareCalls(): Promise<void> {
      for (const taskPath of paths) {
        const headers = { 'x-api-key': measuredOwner.apiKey, accept: 'application/json' };
        await (await fetch(`${robloxUrl}/cloud/v2/${taskPath}?view=BASIC`, { headers })).text();
        await (
          await fetch(`${robloxUrl}/cloud/v2/${taskPath}/logs?view=STRUCTURED&maxPageSize=1000`, { headers })
        ).text();
      }
    }
    /** One round over every task of the owner, each due; CPU per poll and the calls it made. */
    async function followedRound() {
      await due(measuredOwner.id);
      const before = await stats();
      const { cpuMs, wallMs } = await measured(() => follower.round(measuredOwner.id, held));
      const after = await stats();
      const reads = after.reads - before.reads;
      const logReads = after.logReads - before.logReads;
      return { cpuPerPollMs: cpuMs / reads, reads, logReads, wallMs, refused: after.refused429 - before.refused429 };
    }

    // The first poll of each task: it starts running (its row moves, the screens are told) and its line is kept.
    const first = await followedRound();
    const polls: number[] = [];
    const bare: number[] = [];
    const callsPerMinute: number[] = [];
    let refused = first.refused;
    for (let round = 0; round < rounds; round++) {
      bare.push((await measured(bareCalls)).cpuMs / paths.length);
      const followed = await followedRound();
      if (followed.reads !== tasks) throw new Error(`A round read ${followed.reads} tasks, not ${tasks}`);
      polls.push(followed.cpuPerPollMs);
      callsPerMinute.push(((followed.reads + followed.logReads) / followed.wallMs) * MINUTE_MS);
      refused += followed.refused;
    }
    const busyMemory = memory();

    const poll = median(polls);
    const bareCall = median(bare);
    console.log(
      `Following ${fmt(tasks, 0)} running tasks, Roblox's limits raised (1,000,000 calls a minute): medians of ${rounds} rounds`,
    );
    console.log(
      `  CPU per poll (a task read, its logs read)   ${fmt(poll, 3)} ms   the two bare calls ${fmt(bareCall, 3)} ms   x${fmt(poll / bareCall, 2)}`,
    );
    console.log(
      `  a round over every task                   ${fmt(poll * tasks, 0)} ms of CPU   first poll of each (starts running, 1 line kept) ${fmt(first.cpuPerPollMs, 3)} ms   empty round ${fmt(median(emptyRounds), 2)} ms`,
    );
    console.log(
      `  calls a minute made                       ${fmt(median(callsPerMinute), 0)} (reads and log reads) against 1,000,000 each allowed; 429s ${refused}`,
    );
    console.log(
      `  memory (after a full GC)                  none running: RSS ${fmt(idleMemory.rssMb, 1)} MB, heap ${fmt(idleMemory.heapMb, 1)} MB   ${fmt(tasks, 0)} running: RSS ${fmt(busyMemory.rssMb, 1)} MB (x${fmt(busyMemory.rssMb / idleMemory.rssMb, 2)}), heap ${fmt(busyMemory.heapMb, 1)} MB (x${fmt(busyMemory.heapMb / idleMemory.heapMb, 2)}; ${fmt(((busyMemory.heapMb - idleMemory.heapMb) * 1024) / tasks, 2)} KB per task)`,
    );

    // Roblox's real limits: a second owner's tasks, followed as the sweep hands the owner out.
    await fake.ask({ op: 'setLimits', limits: ROBLOX_LIMITS });
    await due(limitedOwner.id);
    const readFrom = (await fake.ask<{ next: number }>({ op: 'readTasks', apiKey: limitedOwner.apiKey, from: 0 })).next;
    console.log(`Following ${fmt(tasks, 0)} running tasks within Roblox's limits for ${limitedSeconds} s...`);
    const samples: (FakeLuauStats & { at: number })[] = [];
    let limitedCpuMs = 0;
    let limitedRounds = 0;
    const limitedStarted = Date.now();
    const limitedStats = await stats();
    samples.push({ ...limitedStats, at: 0 });
    for (let second = 1; second <= limitedSeconds; second++) {
      const owners = await cloudTasksRepo.dueOwners(db, new Date().toISOString(), 500);
      if (owners.includes(limitedOwner.id)) {
        limitedCpuMs += (await measured(() => follower.round(limitedOwner.id, held))).cpuMs;
        limitedRounds += 1;
      }
      await sleep(Math.max(0, limitedStarted + second * 1000 - Date.now()));
      samples.push({ ...(await stats()), at: second });
    }
    /** The most calls of a kind made within any 60 s of the samples (one a second). */
    const mostInAMinute = (count: (sample: FakeLuauStats) => number) =>
      Math.max(
        ...samples.map((sample, index) => {
          const start = samples.find((earlier) => earlier.at >= sample.at - 60) ?? samples[0]!;
          return index === 0 ? 0 : count(sample) - count(start);
        }),
      );
    const last = samples.at(-1)!;
    const reads = last.reads - limitedStats.reads;
    const readsInAMinute = mostInAMinute((sample) => sample.reads);
    const logsInAMinute = mostInAMinute((sample) => sample.logReads);
    const { distinct } = await fake.ask<{ distinct: number }>({
      op: 'readTasks',
      apiKey: limitedOwner.apiKey,
      from: readFrom,
    });
    console.log(
      `  task reads in any 60 s   ${fmt(readsInAMinute, 0)} of ${ROBLOX_LIMITS.readsPerMinute} allowed (x${fmt(readsInAMinute / ROBLOX_LIMITS.readsPerMinute, 2)})   ${fmt(reads, 0)} in ${limitedSeconds} s`,
    );
    console.log(
      `  log reads in any 60 s    ${fmt(logsInAMinute, 0)} of ${ROBLOX_LIMITS.logReadsPerMinute} allowed (x${fmt(logsInAMinute / ROBLOX_LIMITS.logReadsPerMinute, 2)})`,
    );
    // Each round reads the tasks due oldest first until the budget is spent, so with more tasks
    // than reads a minute the same oldest ones are read again each minute.
    console.log(
      `  tasks read at least once ${fmt(distinct, 0)} of ${fmt(tasks, 0)}   429s ${last.refused429 - limitedStats.refused429} (over a limit: ${last.overLimit - limitedStats.overLimit})   rounds ${limitedRounds}   CPU ${fmt((limitedCpuMs / limitedSeconds) * 60, 0)} ms a minute`,
    );
    console.log(
      `RESULT ${JSON.stringify({
        tasks,
        cpuPerPollMs: poll,
        bareCallsMs: bareCall,
        firstPollMs: first.cpuPerPollMs,
        emptyRoundMs: median(emptyRounds),
        callsPerMinuteRaised: median(callsPerMinute),
        idleMemory,
        busyMemory,
        limited: {
          seconds: limitedSeconds,
          readsInAMinute,
          logsInAMinute,
          distinctTasksRead: distinct,
          refused429: last.refused429 - limitedStats.refused429,
          overLimit: last.overLimit - limitedStats.overLimit,
          rounds: limitedRounds,
          cpuMsPerMinute: (limitedCpuMs / limitedSeconds) * 60,
        },
      })}`,
    );
  } finally {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await app?.close();
    fake.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
