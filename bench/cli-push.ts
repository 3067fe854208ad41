/**
 * The command line's push: `npm run bench -- cli-push [--files 500] [--kib 4] [--rounds 3]`.
 *
 * A folder of `--files` scripts of about `--kib` KiB each (500 x 4 KiB = 2 MB by default) is pushed
 * to a fresh server by the real `moonrelay` command: the first push (every file a new script), a
 * push with one file changed, and one with nothing changed. Each is timed and its API calls counted
 * (MOONRELAY_TRACE). The baseline, measured in the same run, is the same work done by bare HTTP
 * calls from this process (one POST per script, then one PUT), so the ratio is what the command
 * adds. Targets 127.0.0.1 only; the server runs with its rate limit raised (a deployed server's
 * 100 calls a minute make a first push of 500 files wait about 5 minutes: the command waits out each
 * 429 as Retry-After says).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { Script } from '@moonrelay/contract/scripts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const BIN = path.resolve('cli/bin/moonrelay.js');

/** Runs the command; answers its time, exit code and the API calls it traced. */
function moonrelay(cwd: string, env: Record<string, string>, args: string[]) {
  return new Promise<{ ms: number; code: number | null; calls: number; stderr: string }>((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env, MOONRELAY_TRACE: '1', CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      // The trace prints one line per call: "> METHOD /path status time".
      const calls = stderr.split('\n').filter((line) => line.startsWith('> ')).length;
      resolve({ ms: performance.now() - started, code, calls, stderr });
    });
  });
}

const codeOf = (index: number, kib: number, edit = 0) => {
  const line = `print("script ${index} keeps its place in the game")\n`;
  return `-- script ${index} edit ${edit}\n` + line.repeat(Math.max(1, Math.floor((kib * 1024) / line.length)));
};

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { files: { type: 'string' }, kib: { type: 'string' }, rounds: { type: 'string' } },
  });
  const files = values.files ? positiveInteger('--files', values.files) : 500;
  const kib = values.kib ? positiveInteger('--kib', values.kib) : 4;
  const rounds = values.rounds ? positiveInteger('--rounds', values.rounds) : 3;
  const servers = benchServers();
  try {
    const port = await freePort();
    const server = servers.start('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: await servers.tempFolder(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
    });
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(server, `${base}/api/openapi.json`);
    const first = { ms: [] as number[], calls: [] as number[] };
    const oneChanged = { ms: [] as number[], calls: [] as number[] };
    const unchanged = { ms: [] as number[], calls: [] as number[] };
    const bareFirst: number[] = [];
    const bareOne: number[] = [];
    console.log(`moonrelay push: ${files} files of ${kib} KiB (${fmt((files * kib) / 1024, 1)} MB), ${rounds} rounds`);
    for (let round = 0; round < rounds; round++) {
      // A fresh account each round, so every first push creates every script.
      const account = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `push${round}@example.com`,
        username: `push${round}`,
        name: 'Push',
        password: 'bench-password-123',
      });
      const apiKey = account.user.apiKey!;
      const folder = await servers.tempFolder();
      const home = await servers.tempFolder();
      fs.mkdirSync(path.join(folder, 'src'));
      for (let index = 0; index < files; index++)
        fs.writeFileSync(path.join(folder, 'src', `Script${index}.luau`), codeOf(index, kib));
      const env = { MOONRELAY_URL: base, MOONRELAY_API_KEY: apiKey, HOME: home, XDG_CONFIG_HOME: home };
      const init = await moonrelay(folder, env, ['init', '--dir', 'src']);
      if (init.code !== 0) throw new Error(`moonrelay init failed: ${init.stderr}`);
      const pushed = await moonrelay(folder, env, ['push']);
      if (pushed.code !== 0) throw new Error(`moonrelay push failed: ${pushed.stderr.slice(-500)}`);
      first.ms.push(pushed.ms);
      first.calls.push(pushed.calls);
      fs.writeFileSync(path.join(folder, 'src', 'Script7.luau'), codeOf(7, kib, 1));
      const again = await moonrelay(folder, env, ['push']);
      oneChanged.ms.push(again.ms);
      oneChanged.calls.push(again.calls);
      const none = await moonrelay(folder, env, ['push']);
      unchanged.ms.push(none.ms);
      unchanged.calls.push(none.calls);

      // The baseline: the same scripts sent by bare calls from this process, then one changed.
      const bare = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `bare${round}@example.com`,
        username: `bare${round}`,
        name: 'Bare',
        password: 'bench-password-123',
      });
      const started = performance.now();
      let last: Script | undefined;
      for (let index = 0; index < files; index++)
        last = await call<Script>(
          base,
          'POST',
          '/api/scripts',
          { name: `Script${index}`, code: codeOf(index, kib), description: '' },
          bare.token,
        );
      bareFirst.push(performance.now() - started);
      const oneStarted = performance.now();
      await call(base, 'PUT', `/api/scripts/${last!.id}`, { code: codeOf(files - 1, kib, 1) }, bare.token);
      bareOne.push(performance.now() - oneStarted);
    }
    const row = (label: string, times: number[], calls: number[], baseline?: number[]) =>
      console.log(
        `  ${label.padEnd(28)} ${fmt(median(times), 0)} ms, ${median(calls)} API calls` +
          (baseline
            ? `; bare calls ${fmt(median(baseline), 0)} ms, ratio ${fmt(median(times) / median(baseline), 2)}`
            : ''),
      );
    row('first push (all new)', first.ms, first.calls, bareFirst);
    row('one file changed', oneChanged.ms, oneChanged.calls, bareOne);
    // A push with nothing to send is the command's own start and the folder's hashing: the floor.
    row('nothing changed', unchanged.ms, unchanged.calls);
    console.log(
      'RESULT ' +
        JSON.stringify({
          files,
          kib,
          firstMs: median(first.ms),
          firstCalls: median(first.calls),
          oneChangedMs: median(oneChanged.ms),
          oneChangedCalls: median(oneChanged.calls),
          unchangedCalls: median(unchanged.calls),
          bareFirstMs: median(bareFirst),
        }),
    );
  } finally {
    await servers.close();
  }
}
