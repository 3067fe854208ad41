/**
 * Login limiter benchmark: `npm run bench -- login [--burst N] [--rounds N]`.
 *
 * Sends a burst of N (default 1,000) wrong-password logins for one account all at once, over N
 * connections, and reports how long the whole burst took to be answered and how many answers were
 * a password check (401: a wrong password is only known by checking it) versus refused by the
 * lockout before any check (429). Each round guesses at a fresh account. Beside it, one wrong
 * password alone: the cost of one argon2 check, so the burst's time reads as a ratio to it.
 * The server runs as a child process, so the load generator never shares its event loop.
 */
import { parseArgs } from 'node:util';
import http from 'node:http';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const LIMIT = 5;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { burst: { type: 'string' }, rounds: { type: 'string' } } });
  const burst = values.burst ? positiveInteger('--burst', values.burst) : 1_000;
  const rounds = values.rounds ? positiveInteger('--rounds', values.rounds) : 5;
  const servers = benchServers();
  // One connection per request of the burst: the requests reach the server truly at once.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  servers.closers.push(() => agent.destroy());
  try {
    const dataDir = await servers.tempFolder();
    const port = await freePort();
    const moonrelay = servers.start('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The general per-IP budget would refuse the burst before the login limiter saw it.
      RATE_LIMIT_PER_MINUTE: '100000000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000000',
      LOGIN_MAX_FAILURES: String(LIMIT),
    });
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(moonrelay, `${base}/api/openapi.json`);

    const login = (emailOrUsername: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ emailOrUsername, password: 'not the password' });
        const request = http.request(
          {
            agent,
            host: HOST,
            port,
            method: 'POST',
            path: '/api/auth/login',
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        request.on('error', reject);
        request.end(body);
      });

    console.log(`Login limiter: ${rounds} round(s) of ${burst} wrong passwords at once, LOGIN_MAX_FAILURES=${LIMIT}`);
    const single: number[] = [];
    const bursts: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const account = `bench_${round}`;
      await call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `${account}@example.com`,
        username: account,
        name: 'Bench',
        password: 'bench-password-123',
      });
      // One check alone, at another identifier, for the cost of one argon2 verification.
      const one = performance.now();
      await login(`${account}@example.com`);
      single.push(performance.now() - one);

      const started = performance.now();
      const statuses = await Promise.all(Array.from({ length: burst }, () => login(account)));
      const elapsed = performance.now() - started;
      bursts.push(elapsed);
      const checked = statuses.filter((status) => status === 401).length;
      const refused = statuses.filter((status) => status === 429).length;
      const other = burst - checked - refused;
      console.log(
        `  round ${round}/${rounds}  burst answered in ${fmt(elapsed, 0)} ms  password checks ${checked}  ` +
          `refused 429 ${refused}${other ? `  OTHER ${other}` : ''}  one check alone ${fmt(single.at(-1)!, 1)} ms`,
      );
      if (checked > LIMIT) console.log(`WARNING: ${checked} password checks, more than the limit of ${LIMIT}`);
    }
    const burstMedian = median(bursts);
    const singleMedian = median(single);
    console.log(
      `median: burst of ${burst} answered in ${fmt(burstMedian, 0)} ms; one check ${fmt(singleMedian, 1)} ms; ` +
        `burst / one check = ${fmt(burstMedian / singleMedian, 1)}x ` +
        `(${fmt(burstMedian / burst, 2)} ms a request; unchecked, ${burst} checks would take ~${fmt((singleMedian * burst) / 1000, 0)} s)`,
    );
    console.log(`RESULT ${JSON.stringify({ burst, burstMedianMs: burstMedian, singleCheckMedianMs: singleMedian })}`);
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
  }
}
