/**
 * The dry run's side of the sandbox: the emulation's Lua sources (lua/sandbox/dry-run), and the
 * reading of the report its driver answers in place of the script's return values. run-lua.ts
 * loads the sources after the prelude and hands the script's chunk to the driver; everything else
 * about a run (limits, output, errors) is the sandbox's own.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What the script did to the emulated game (see lua/sandbox/dry-run/main.lua, summarize). */
export interface DryRunSummary {
  /** Instances the script created, by class, most first. */
  created: Array<{ className: string; count: number }>;
  /** Instances the script destroyed (with their descendants), by class, most first. */
  destroyed: Array<{ className: string; count: number }>;
  /** Properties the script set on instances it did not create (the game's own), with the last value. */
  changed: Array<{ instance: string; property: string; value: string }>;
  /** Further changed properties left out of `changed`. */
  changedOmitted: number;
  /** Property assignments in all, on any instance. */
  propertiesSet: number;
  /** Game seconds the run covered on its virtual clock. */
  gameSeconds: number;
  /** Threads still waiting (on the clock, a signal, a child) when the run ended. */
  waitingThreads: number;
  /** 'idle': nothing was left to run; 'game-time-limit': the clock reached the dry run's last second. */
  endedBy: 'idle' | 'game-time-limit';
}

export interface DryRunModules {
  main: string;
  others: ReadonlyArray<readonly [string, string]>;
}

const MODULES = ['json', 'scheduler', 'signals', 'enums', 'datatypes', 'instances', 'classes', 'world'] as const;

export function readDryRunModules(): DryRunModules {
  const require = createRequire(import.meta.url);
  const read = (name: string) => readFileSync(require.resolve(`@moonrelay/lua/sandbox/dry-run/${name}.lua`), 'utf8');
  return { main: read('main'), others: MODULES.map((name) => [name, read(name)] as const) };
}

interface Report {
  error: string | null;
  summary: DryRunSummary;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isClassCounts = (value: unknown) =>
  Array.isArray(value) &&
  value.every((item) => isRecord(item) && typeof item.className === 'string' && isCount(item.count));
const isChange = (item: unknown) =>
  isRecord(item) &&
  typeof item.instance === 'string' &&
  typeof item.property === 'string' &&
  typeof item.value === 'string';

/**
 * The report's shape, checked: the emulation shares its state with the script, so a script that
 * broke it must give a failed run, never an answer the API cannot send.
 */
function readReport(text: string | undefined): Report | null {
  let report: unknown;
  try {
    report = JSON.parse(text ?? '');
  } catch {
    return null;
  }
  if (!isRecord(report) || !isRecord(report.summary)) return null;
  const error = report.error ?? null;
  const summary = report.summary;
  const valid =
    (error === null || typeof error === 'string') &&
    isClassCounts(summary.created) &&
    isClassCounts(summary.destroyed) &&
    Array.isArray(summary.changed) &&
    summary.changed.every(isChange) &&
    isCount(summary.changedOmitted) &&
    isCount(summary.propertiesSet) &&
    typeof summary.gameSeconds === 'number' &&
    Number.isFinite(summary.gameSeconds) &&
    isCount(summary.waitingThreads) &&
    (summary.endedBy === 'idle' || summary.endedBy === 'game-time-limit');
  return valid ? { error, summary: summary as unknown as DryRunSummary } : null;
}

/** The sandbox result of a dry run: the driver's report (its only return value) read into it. */
export function finishDryRun<T extends { success: boolean; error: string | null; returns: string[] }>(
  result: T,
): T & { dryRun: DryRunSummary | null } {
  if (!result.success || result.returns.length !== 1) {
    return { ...result, returns: [], dryRun: null };
  }
  const report = readReport(result.returns[0]);
  if (report === null) {
    return {
      ...result,
      success: false,
      error: 'The dry run failed: its report could not be read',
      returns: [],
      dryRun: null,
    };
  }
  return { ...result, success: report.error === null, error: report.error, returns: [], dryRun: report.summary };
}
