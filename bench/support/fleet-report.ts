/** How a fleet run is printed: a block per run, a table of the shapes side by side, and a RESULT line each. */
import {
  AFTER_STORM_P99_TARGET_MS,
  FLEET_P99_TARGET_MS,
  FLEET_TARGET_SIZE,
  LAG_TOLERANCE_MS,
  LONG_POLL_WAIT_SECONDS,
  PING_INTERVAL_MS,
  STEADY_FROM_MS,
  STORM_CONNECTED_WITHIN_MS,
  STORM_P99_TARGET_MS,
  type FleetResult,
  type SocketWatch,
  type Spread,
  type WindowResult,
} from './fleet-phase.ts';
import type { CpuShare } from './proc-stats.ts';
import { fmt } from './stats.ts';

export const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');
/** Other processes using more than this share of one core make the numbers pessimistic. */
const BUSY_MACHINE_PERCENT = 25;

export function describeMachine(share: CpuShare | undefined): string {
  if (!share) return '';
  return (
    `machine (${share.cores} cores): this benchmark and its servers used ${fmt(share.ours, 0)}% of a core, ` +
    `other processes ${fmt(share.others, 0)}%` +
    (share.others > BUSY_MACHINE_PERCENT ? ' -- WARNING: a busy machine, the numbers are pessimistic' : '')
  );
}

const ms = (value: number, digits = 1) => `${fmt(value, digits)} ms`;
const p50p99 = (s: Spread, digits = 1) => `p50 ${ms(s.p50Ms, digits)}, p99 ${ms(s.p99Ms, digits)}`;

/** Pings that never got a 200: failed, dropped while the server was too slow, or shed and never retried. */
export function unanswered(r: FleetResult): number {
  return r.failed + r.skipped + r.unretried + r.shedWithoutRetryAfter;
}

export function window(r: FleetResult, name: string): WindowResult | undefined {
  return r.windows.find((w) => w.name === name);
}

export interface Verdicts {
  /** Each judged target: its description and whether it was met (null: not judged at this size). */
  [target: string]: boolean | null;
}

export function verdicts(r: FleetResult): Verdicts {
  const probesAll = r.probes.sent === 0 ? null : r.probes.delivered === r.probes.sent && r.probes.noLiveGame === 0;
  if (r.kind === 'storm') {
    const storm = window(r, 'storm');
    const after = window(r, 'after');
    return {
      [`storm p99 <= ${STORM_P99_TARGET_MS} ms`]: !!storm && storm.latency.p99Ms <= STORM_P99_TARGET_MS,
      [`every game 2xx within ${STORM_CONNECTED_WITHIN_MS / 1000} s`]:
        r.firstAnswer.never === 0 && r.firstAnswer.later === 0,
      [`p99 from ${STEADY_FROM_MS / 1000} s on <= ${AFTER_STORM_P99_TARGET_MS} ms`]:
        !!after && after.latency.p99Ms <= AFTER_STORM_P99_TARGET_MS,
      'every ping answered': unanswered(r) === 0,
      'every probe command delivered': probesAll,
    };
  }
  const steady = window(r, 'steady');
  const judged = r.servers >= FLEET_TARGET_SIZE && r.mode === 'plain';
  return {
    'no errors': r.failed === 0,
    [`steady p99 <= ${FLEET_P99_TARGET_MS} ms at ${FLEET_TARGET_SIZE}+ servers`]: judged
      ? !!steady && steady.latency.p99Ms <= FLEET_P99_TARGET_MS
      : null,
    'every probe command delivered': probesAll,
  };
}

/** The human block for one fleet (or storm) run. `baselineUs`: the N/10 shape's CPU per ping, for the ratio. */
export function describeFleet(r: FleetResult, baselineUs: number | undefined): string[] {
  const lines: string[] = [];
  const longPoll = r.mode === 'long-poll';
  lines.push(
    `${r.kind === 'storm' ? 'Restart storm' : 'Fleet'} ${r.shape}: ${r.servers} game servers of ${r.users} user(s), ` +
      `${longPoll ? `long-poll (wait ${LONG_POLL_WAIT_SECONDS} s)` : `plain ${PING_INTERVAL_MS / 1000} s pings`}, ` +
      `${r.instances} instance(s), ${r.durationSeconds} s (users registered in ${fmt(r.registerSeconds, 1)} s)` +
      (r.gamesPerConnection > 1
        ? `; ${r.gamesPerConnection} games per connection (more games than sockets one process may hold here)`
        : ''),
  );
  lines.push(
    `   requests/s: ${fmt(r.plannedPerSecond, 0)} planned, ${fmt(r.offeredPerSecond, 0)} offered (sent, retries ` +
      `included), ${fmt(r.answeredPerSecond, 0)} answered; ${r.ok} answered of ${r.sent} sent (${r.planned} due)`,
  );
  lines.push(
    `   errors ${r.failed} (timeouts ${r.timeouts})` +
      (r.failed ? ` ${JSON.stringify(r.errorKinds)}` : '') +
      `; shed (503) ${r.shed}` +
      (r.shed
        ? ` (${r.shedWithoutRetryAfter} without Retry-After; Retry-After ` +
          (r.retryAfterSeconds
            ? `${fmt(r.retryAfterSeconds.min, 1)}-${fmt(r.retryAfterSeconds.max, 1)} s, median ${fmt(r.retryAfterSeconds.median, 1)} s`
            : 'never given') +
          `; ${r.retries} retries, ${r.heldByRetryAfter} scheduled pings held back, ${r.unretried} not retried ` +
          `before the end; Retry-After honoured: ${r.retryAfterHonoured === null ? 'n/a' : r.retryAfterHonoured ? 'yes' : 'NO'}` +
          (r.retryMarginMinMs !== null ? `, earliest retry ${ms(r.retryMarginMinMs)} after it` : '') +
          ')'
        : '') +
      `; unanswered ${unanswered(r)}`,
  );
  if (r.waited || r.skipped) {
    lines.push(
      `   the server fell behind: ${r.waited} pings went out late because the game's previous ping was still ` +
        `unanswered, ${r.skipped} were dropped; due -> answer p99 ${ms(r.fromSchedule.p99Ms)}`,
    );
  }
  const latencyName = longPoll ? `held past the ${LONG_POLL_WAIT_SECONDS} s wait` : 'send -> answer';
  lines.push(`   latency (${latencyName}): ${p50p99(r.latency, 2)}, max ${ms(r.latency.maxMs)}`);
  for (const w of r.windows) {
    lines.push(
      `   - ${(w.label + ':').padEnd(48)} ${p50p99(w.latency, 2)}, ${w.failed} errors, ${w.shed} shed ` +
        `(${w.latency.count} answers)`,
    );
  }
  const first = r.firstAnswer;
  lines.push(
    `   each game's first 2xx answer, after the start: ${p50p99(first.spread, 0)}, max ${ms(first.spread.maxMs, 0)}; ` +
      `${first.later} games later than ${STORM_CONNECTED_WITHIN_MS / 1000} s, ${first.never} never answered 2xx`,
  );
  if (r.longPoll) {
    lines.push(
      `   long-polls held: ${p50p99(r.longPoll.held, 0)}; ${r.longPoll.commandAnswers} answers carried a command`,
    );
  }
  const p = r.probes;
  const refused = Object.entries(p.refused)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  if (p.sent === 0 && p.noLiveGame === 0) lines.push('   probe commands: none (--probe-every 0)');
  else
    lines.push(
      `   probe commands ('heal' to a random live game every few seconds): ${p.sent} sent, ${p.delivered} delivered` +
        (p.lost ? `, ${p.lost} accepted but never reached their game` : '') +
        (p.noLiveGame ? `, ${p.noLiveGame} not sent (no game had an answered ping in the last 4 s)` : '') +
        (refused ? `, not accepted: ${refused}` : '') +
        `; ${p.onNextPing} on the game's next ping answer; post -> game ${p50p99(p.latency, 0)}, max ${ms(p.latency.maxMs, 0)}` +
        ` (the POST itself ${p50p99(p.postLatency, 1)})`,
    );
  if (r.dashboards) {
    const socket = (name: string, s: SocketWatch) =>
      `${name} got ${s.events} game:servers events (${fmt(s.servers, 0)} server entries, at most ` +
      `${fmt(s.maxServersPerEvent, 0)} in one, ${s.gone} gone; ${s.tooClose} closer than 1 s to the one before; ` +
      `newest ping ${ms(s.staleness.p50Ms, 0)} old at p50, ${ms(s.staleness.p99Ms, 0)} at p99)` +
      (s.legacyEvents ? `, and ${s.legacyEvents} legacy game:status events` : '');
    lines.push(`   dashboards: ${socket("the first user's socket", r.dashboards.user)}`);
    if (r.dashboards.admin) lines.push(`               ${socket("an admin's socket", r.dashboards.admin)}`);
  }
  const b = r.broadcasts;
  if (b) {
    const statuses = Object.entries(b.statuses)
      .map(([k, v]) => `${v} ${/^\d+$/.test(k) ? `HTTP ${k}` : k}`)
      .join(', ');
    lines.push(
      `   broadcasts (an 'execute' to every server of a random user, every ${fmt(b.everyMs / 1000, 1)} s): ` +
        `${b.sent} sent (${statuses || 'none'}); enqueue (the POST) ${p50p99(b.enqueue, 1)}, max ${ms(b.enqueue.maxMs, 0)}; ` +
        `${b.complete} of ${b.accepted} accepted reached every one of their user's ${b.gamesPerUser} games` +
        (b.incomplete
          ? ` (${b.incomplete} did not: the least reached ${fmt((b.leastReachedShare ?? 0) * 100, 1)}%)`
          : '') +
        `; POST -> every game has it ${p50p99(b.reach, 0)}, max ${ms(b.reach.maxMs, 0)}; -> the first has it ` +
        `${p50p99(b.firstReach, 0)}`,
    );
  }
  const s = r.server;
  const ratio = baselineUs !== undefined ? s.cpuUsPerPing / baselineUs : NaN;
  lines.push(
    `   server: CPU ${fmt(s.cpuPercent, 0)}% of a core, ${fmt(s.cpuUsPerPing, 0)} µs per answered request` +
      (Number.isFinite(ratio) ? ` (${fmt(ratio, 2)}x the N/10 shape's ${fmt(baselineUs!, 0)} µs)` : '') +
      `; its event loop ran ${fmt(s.loopRunningPercent, 0)}% of the time and waited for a CPU ` +
      `${fmt(s.loopWaitPercent, 0)}%; RSS ${fmt(s.rssBeforeMb, 0)} MB before, ${fmt(s.rssEndMb, 0)} MB at the end ` +
      `(peak sampled ${fmt(s.rssPeakSampledMb, 0)} MB, VmHWM ${fmt(s.vmHwmMb, 0)} MB)` +
      (longPoll ? ` with ${r.servers} live servers and their long-polls held` : '') +
      `, ${fmt(s.rssPerServerKb, 1)} KB more per game server; from ${STEADY_FROM_MS / 1000} s on ` +
      `${fmt(r.steady.cpuUsPerPing, 0)} µs per answer (${r.steady.answered} answers)`,
  );
  const g = r.generator;
  lines.push(
    `   load generator: ${g.threads} thread(s), CPU ${fmt(g.cpuPercent, 0)}% of a core, its threads waited for a ` +
      `CPU ${fmt(g.waitPercent, 0)}% of the time in total; timers late ` +
      `${p50p99(g.timerLate, 1)}, max ${ms(g.timerLate.maxMs, 0)}; event-loop delay p99 ${ms(g.loopDelayP99Ms)}, max ${ms(g.loopDelayMaxMs, 0)} ` +
      `(busiest thread ${fmt(g.eventLoopUtilizationMax * 100, 0)}% busy), main thread ${ms(g.mainLoopDelayP99Ms)}; ` +
      `${g.connects} connections opened (connect ${p50p99(g.connectTime, 1)}, max ${ms(g.connectTime.maxMs, 0)}; ` +
      `${fmt(s.listenOverflows, 0)} connection attempts dropped at a full accept queue (kernel counter, whole machine), server ` +
      `backlog ${fmt(s.listenBacklog, 0)}); ` +
      `max ${g.maxInFlight} requests in flight`,
  );
  lines.push(
    g.behind
      ? `   WARNING: the load generator fell behind its own schedule (p99 > ${LAG_TOLERANCE_MS} ms): the offered ` +
          `load was lower than planned and the latencies include its own delays`
      : `   the load generator kept its schedule (its timers and event loops p99 <= ${LAG_TOLERANCE_MS} ms)`,
  );
  const judged = Object.entries(verdicts(r))
    .map(([target, met]) => `${target}: ${met === null ? 'n/a' : verdict(met)}`)
    .join('; ');
  lines.push(`   targets: ${judged}`);
  lines.push(`   ${describeMachine(r.machine)}`);
  return lines;
}

/** The shapes side by side. */
export function fleetTable(results: FleetResult[], baselineUs: number | undefined): string[] {
  const header =
    'shape        mode       offered/s answered/s  errors timeouts   shed  connect p50/p99 ms  steady p50/p99 ms  ' +
    'µs/ping  x N/10  RSS MB  loop wait  gen lag p99  probes';
  const lines = [header];
  for (const r of results) {
    const first = r.windows[0]!;
    const lastWindow = r.windows[r.windows.length - 1]!;
    const pair = (w: WindowResult) => `${fmt(w.latency.p50Ms, 1)} / ${fmt(w.latency.p99Ms, 1)}`;
    const ratio = baselineUs !== undefined ? fmt(r.server.cpuUsPerPing / baselineUs, 2) : 'n/a';
    lines.push(
      [
        `${r.kind === 'storm' ? 'storm ' : ''}${r.shape}`.padEnd(12),
        r.mode.padEnd(9),
        fmt(r.offeredPerSecond, 0).padStart(9),
        fmt(r.answeredPerSecond, 0).padStart(10),
        String(r.failed).padStart(7),
        String(r.timeouts).padStart(8),
        String(r.shed).padStart(6),
        pair(first).padStart(18),
        pair(lastWindow).padStart(18),
        fmt(r.server.cpuUsPerPing, 0).padStart(8),
        ratio.padStart(7),
        fmt(r.server.rssEndMb, 0).padStart(7),
        `${fmt(r.server.loopWaitPercent, 0)}%`.padStart(10),
        `${fmt(r.generator.timerLate.p99Ms, 0)} ms${r.generator.behind ? '!' : ''}`.padStart(12),
        `${r.probes.delivered}/${r.probes.sent}`.padStart(7),
      ].join(' '),
    );
  }
  if (results.some((r) => r.generator.behind))
    lines.push('(! the load generator fell behind its schedule in that run)');
  return lines;
}

/** The N/10 shape's CPU per answered request (the first such run of the same mode), the yardstick of the ratios. */
export function baselineCpuUs(results: FleetResult[], mode: FleetResult['mode']): number | undefined {
  return results.find((r) => r.baseline && r.kind === 'fleet' && r.mode === mode)?.server.cpuUsPerPing;
}
