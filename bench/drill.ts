/**
 * Fault drills: `npm run drill [-- --games N] [--users N] [--rate N] [--drills a,b] [--before S] [--after S]`.
 *
 * Two instances and a worker over a fresh PostgreSQL database (TEST_POSTGRES_URL, or
 * postgres@127.0.0.1:5432) and a private redis-server, all on 127.0.0.1; 50 game servers
 * long-polling both instances and a stream of commands; then each drill in turn while the stream
 * flows: kill -9 an instance, restart Redis, terminate every PostgreSQL session, kill -9 the worker
 * during a mass execution (server/test/drills.ts). Prints a table and a `RESULT {json}` line per
 * drill; exits non-zero when any drill breaks an invariant (a 500, a lost or duplicated command, a
 * crash, a mass-execution part not final, no recovery). Cleans up after itself, on failure too.
 */
import { parseArgs } from 'node:util';
import {
  DRILLS,
  formatTable,
  FULL_DRILL,
  invariantFailures,
  runDrills,
  type DrillName,
} from '../server/test/drills.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: String(FULL_DRILL.games) },
    users: { type: 'string', default: String(FULL_DRILL.users) },
    rate: { type: 'string', default: String(FULL_DRILL.commandsPerSecond) },
    drills: { type: 'string', default: FULL_DRILL.drills.join(',') },
    before: { type: 'string', default: String(FULL_DRILL.beforeSeconds) },
    after: { type: 'string', default: String(FULL_DRILL.afterSeconds) },
  },
});

const bounded = (name: string, value: string, max: number) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) throw new Error(`--${name} takes 1 to ${max}`);
  return number;
};
const drills = values.drills.split(',') as DrillName[];
const unknown = drills.filter((drill) => !DRILLS.includes(drill));
if (unknown.length) throw new Error(`unknown drill(s) ${unknown.join(', ')}; the drills are ${DRILLS.join(', ')}`);
const users = bounded('users', values.users, 100);
const options = {
  ...FULL_DRILL,
  games: bounded('games', values.games, 500),
  users,
  commandsPerSecond: bounded('rate', values.rate, 200),
  drills,
  beforeSeconds: bounded('before', values.before, 120),
  afterSeconds: bounded('after', values.after, 120),
  adminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  log: (line: string) => console.log(line),
};
if (options.games < users) throw new Error('--games must be at least --users: each user has a game server');

console.log(
  `Fault drills: ${options.games} game servers of ${users} users, ${options.commandsPerSecond} commands/s, ` +
    `drills ${drills.join(', ')}`,
);
// Ctrl-C stops the drill through its own clean-up (the processes, Redis, the database).
let cleanUp: () => Promise<void> = async () => {};
const interrupted = () => void cleanUp().finally(() => process.exit(130));
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
const rows = await runDrills({ ...options, onCleanUp: (stop) => (cleanUp = stop) });
console.log(`\n${formatTable(rows)}\n`);
let failed = false;
for (const row of rows) {
  const failures = invariantFailures(row);
  if (failures.length) failed = true;
  console.log(`${row.drill}: ${failures.length ? `FAILED: ${failures.join('; ')}` : 'ok'}`);
  for (const note of row.crashNotes) console.log(`  ${note.replaceAll('\n', '\n  ')}`);
}
process.exitCode = failed ? 1 : 0;
