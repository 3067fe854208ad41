/**
 * What a child process costs, read from Linux's /proc (with `ps` as the fallback for memory):
 * resident memory (VmRSS, and its peak VmHWM) and CPU time, so a benchmark can report the server's
 * memory before and after a load and how much of a core it used meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export interface Memory {
  /** Resident set size, MB. */
  rssMb: number;
  /** Peak resident set size since the process started, MB (NaN when unknown). */
  peakMb: number;
}

const kbField = (status: string, field: string) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
};

export function memoryOf(pid: number): Memory {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssMb: kbField(status, 'VmRSS'), peakMb: kbField(status, 'VmHWM') };
  } catch {
    try {
      const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
      return { rssMb: kb / 1024, peakMb: NaN };
    } catch {
      return { rssMb: NaN, peakMb: NaN };
    }
  }
}

let ticksPerSecond: number | undefined;

/** User + system CPU seconds the process has used so far (NaN without /proc). */
export function cpuSecondsOf(pid: number): number {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime and stime (fields 14, 15)
  } catch {
    return NaN;
  }
}

/** CPU seconds the whole machine has been busy (all cores, from the first line of /proc/stat). */
function machineBusySeconds(): number {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...: busy is everything but idle and iowait.
    const busy = fields.slice(0, 8).reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0);
    return busy / ticksPerSecond;
  } catch {
    return NaN;
  }
}

export interface CpuShare {
  /** Percent of one core, averaged over the watch. */
  ours: number;
  /** What every other process on the machine used meanwhile (other people's tests, ...), percent of one core. */
  others: number;
  cores: number;
}

/**
 * Watches how busy the machine is while a phase runs: our processes (this one and the given
 * children) against everything else, so a reader can tell a slow server from a busy machine.
 */
export function watchCpu(pids: number[]): () => CpuShare {
  const ours = () =>
    pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0) +
    process.cpuUsage().user / 1e6 +
    process.cpuUsage().system / 1e6;
  const startedAt = Date.now();
  const machineBefore = machineBusySeconds();
  const oursBefore = ours();
  return () => {
    const seconds = (Date.now() - startedAt) / 1000;
    const oursUsed = ours() - oursBefore;
    const machineUsed = machineBusySeconds() - machineBefore;
    return {
      ours: (oursUsed / seconds) * 100,
      others: (Math.max(0, machineUsed - oursUsed) / seconds) * 100,
      cores: os.cpus().length,
    };
  };
}

export interface Scheduling {
  /** Seconds the process's main thread (a Node server's event loop) ran on a CPU. */
  running: number;
  /** Seconds it was ready to run but waited for a CPU (run queue): time lost to other processes. */
  waiting: number;
}

/** From /proc/<pid>/schedstat (NaN without it). */
export function schedulingOf(pid: number): Scheduling {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { running: (running ?? NaN) / 1e9, waiting: (waiting ?? NaN) / 1e9 };
  } catch {
    return { running: NaN, waiting: NaN };
  }
}

/** The same, summed over every thread of the process (/proc/<pid>/task/*): a load generator's worker threads too. */
export function threadsSchedulingOf(pid: number): Scheduling {
  try {
    let running = 0;
    let waiting = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
        running += (run ?? 0) / 1e9;
        waiting += (wait ?? 0) / 1e9;
      } catch {
        // The thread ended meanwhile.
      }
    }
    return { running, waiting };
  } catch {
    return { running: NaN, waiting: NaN };
  }
}

/**
 * Connection attempts the kernel dropped because a listening socket's accept queue was full
 * (TcpExt ListenOverflows in /proc/net/netstat; counted for the whole machine, NaN without it).
 * A server whose event loop cannot accept as fast as clients connect loses SYNs this way, and each
 * client waits for its SYN to be sent again (1 s, then 3 s, then 7 s).
 */
export function listenOverflows(): number {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const at = lines.findIndex((line) => line.startsWith('TcpExt:'));
    const names = lines[at]!.trim().split(/\s+/);
    const values = lines[at + 1]!.trim().split(/\s+/);
    const i = names.indexOf('ListenOverflows');
    return i < 0 ? NaN : Number(values[i]);
  } catch {
    return NaN;
  }
}

/** The accept-queue length a TCP port listens with (Send-Q of `ss -ltn`), NaN when unknown. */
export function listenBacklog(port: number): number {
  try {
    const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8', timeout: 2_000 }).trim();
    return Number(line.split(/\s+/)[2]);
  } catch {
    return NaN;
  }
}

/**
 * The open-file limit (soft) of this process, which the servers it starts inherit: each game's
 * connection is a descriptor on both sides, so it bounds the sockets one process may hold (Infinity
 * when it cannot be read).
 */
export function openFileLimit(): number {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return !match || match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return Infinity;
  }
}
