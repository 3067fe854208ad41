import { describe, expect, it } from 'vitest';
import { engines } from '../test/engines.ts';
import {
  formatTable,
  FULL_DRILL,
  invariantFailures,
  runDrills,
  type DrillName,
  type DrillRow,
} from '../test/drills.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');

/**
 * The fault drills of `npm run drill`, small: every fault an operator meets, injected into two real
 * instances and a worker under a stream of commands, leaves no 500, no lost or duplicated command,
 * no crash and no mass-execution part short of its end. The worker kill is left to `npm run drill`
 * (and scale-out.test.ts): a part its worker claimed but never sent ends when the queue runs the
 * job again, 30 to 60 s later (BullMQ's lock), too long for this suite.
 */
const DRILLS: DrillName[] = ['instance-kill', 'redis-restart', 'postgres-terminate'];
describe.skipIf(!postgres)(
  'fault drills (short): instance kill, Redis restart, PostgreSQL sessions cut, worker kill',
  () => {
    it('every drill keeps its invariants', async () => {
      const lines: string[] = [];
      const rows = await runDrills({
        ...FULL_DRILL,
        games: 10,
        users: 4,
        commandsPerSecond: 10,
        drills: DRILLS,
        beforeSeconds: 1,
        afterSeconds: 1,
        redisDownSeconds: 2,
        deliveryBoundSeconds: 15,
        massBoundSeconds: 20,
        recoveryBoundSeconds: 20,
        adminUrl: process.env.TEST_POSTGRES_URL!,
        log: (line) => lines.push(line),
      });
      const report = `${formatTable(rows)}\n${lines.join('\n')}`;
      expect(rows.map((row) => row.drill)).toEqual([...DRILLS]);
      // Known gap (docs/operations.md, "Fault drills"): jobs still waiting in Redis are lost with it,
      // and their parts stay `queued` until the sweep ends them after a command's lifetime. Any
      // other unfinished part fails here; `npm run drill` counts these too.
      const lostWithRedis = (row: DrillRow) =>
        row.drill === 'redis-restart' && row.massNotFinal === (row.massStatuses.queued ?? 0);
      const failures = rows.map((row) => [
        row.drill,
        invariantFailures(row).filter((failure) => !(lostWithRedis(row) && failure.includes('mass-execution'))),
      ]);
      expect(failures, report).toEqual(DRILLS.map((drill) => [drill, []]));
      // The drills did inject their faults: commands flowed, and the faults were seen from outside.
      for (const row of rows) expect(row.acknowledged, report).toBeGreaterThan(0);
      expect(rows.find((row) => row.drill === 'instance-kill')!.connectionErrors, report).toBeGreaterThan(0);
      expect(rows.find((row) => row.drill === 'redis-restart')!.status503, report).toBeGreaterThan(0);
    }, 110_000);
  },
);

if (!postgres) {
  describe.skip('fault drills [PostgreSQL: set TEST_POSTGRES_URL=postgres://... to run]', () => {
    it('runs the drills against two instances, a worker, PostgreSQL and Redis', () => {});
  });
}
