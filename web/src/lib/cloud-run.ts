import type {
  CloudLogLine,
  CloudPlaceStatus,
  CloudRunLogsEvent,
  CloudRunState,
  CLOUD_LOG_LINES_MAX as LinesMax,
  CLOUD_TIMEOUT_DEFAULT_SECONDS as TimeoutDefault,
  LUAU_EXECUTION_WRITE as LuauWrite,
} from '@moonrelay/contract/cloud-runs';
import type { Run } from '@moonrelay/contract/runs';

/**
 * Cloud runs (code run by Roblox itself through Open Cloud Luau Execution) as the screens show
 * them: the editor's Run in Roblox, its output pane, the Runs page's rows and run detail. No UI
 * library here, and the contract's constants by their types only: the module that defines them
 * brings zod, and a run's status badge takes these words on screens that have no form.
 */

/** The scope a key needs to start tasks (`:read` only reads them). */
export const LUAU_WRITE_SCOPE: typeof LuauWrite = 'universe.place.luau-execution-session:write';
export const CLOUD_TIMEOUT_DEFAULT: typeof TimeoutDefault = 300;
const LOG_LINES_MAX: typeof LinesMax = 5_000;

/** The time limits the editor offers (Roblox allows 1 to 300 s; its default, and Moonrelay's, is 5 min). */
export const CLOUD_TIMEOUT_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 30, label: '30 s' },
  { seconds: 60, label: '1 min' },
  { seconds: 120, label: '2 min' },
  { seconds: CLOUD_TIMEOUT_DEFAULT, label: '5 min' },
];

/** "5 min", "90 s". */
export const timeLimitText = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`);

/** How each state reads, and its colour: where it waits (Moonrelay, Roblox) until it ends. */
export const CLOUD_STATES: Record<CloudRunState, { label: string; palette: string }> = {
  waiting: { label: 'Waiting for Roblox', palette: 'gray' },
  creating: { label: 'Sending to Roblox', palette: 'gray' },
  queued: { label: 'Queued in Roblox', palette: 'purple' },
  running: { label: 'Running in Roblox', palette: 'blue' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  timed_out: { label: 'Timed out', palette: 'orange' },
  cancelled: { label: 'Cancelled', palette: 'gray' },
};

export const isCloudEnded = (state: CloudRunState) =>
  state === 'succeeded' || state === 'failed' || state === 'timed_out' || state === 'cancelled';

/** How far along a state is; waiting and creating are one step (a create Roblox did not take waits again). */
const STEP: Record<CloudRunState, number> = {
  waiting: 0,
  creating: 0,
  queued: 1,
  running: 2,
  succeeded: 3,
  failed: 3,
  timed_out: 3,
  cancelled: 3,
};

export const CLOUD_RUN_TEXT = {
  button: 'Run in Roblox',
  sending: 'Sending to Roblox...',
  timeoutLabel: 'Time limit in Roblox',
  settingsLink: 'Open Settings',
  /** After the reason, for a member whose role may not set the key or the place. */
  askManager: 'Ask a team member whose role has opencloud.manage.',
  /** The server said no run can start without saying why (it always says). */
  notReady: 'Run in Roblox cannot start yet: see Settings → Roblox Open Cloud.',
  queued: { title: 'Sent to Roblox', description: 'Its log lines show below as Roblox runs it.' },
  cancelled: 'Cloud run cancelled',
  cancelFailed: 'Could not cancel the run',
} as const;

/** "place 4200000002", "place 4200000002 v7". */
export const placeText = (placeId: string, placeVersion: string | null) =>
  placeVersion ? `place ${placeId} v${placeVersion}` : `place ${placeId}`;

/**
 * Whether Run in Roblox can work, from GET /api/open-cloud/place: `ready` names the place;
 * `unknown` while it loads, when it failed, or where the role may not ask (no runs.game: the
 * button is disabled for that already), so the server decides and explains; `blocked` says what
 * to set first, in the words a run would be refused with.
 */
export type CloudReadiness =
  | { kind: 'ready'; placeId: string; placeVersion: string | null }
  | { kind: 'unknown' }
  | { kind: 'blocked'; reason: string };

export function cloudReadiness(place: CloudPlaceStatus | undefined): CloudReadiness {
  if (!place) return { kind: 'unknown' };
  if (!place.ready) return { kind: 'blocked', reason: place.reason ?? CLOUD_RUN_TEXT.notReady };
  // Ready means a place is set; should it not be named, the run's own check still says what is missing.
  if (!place.placeId) return { kind: 'unknown' };
  return { kind: 'ready', placeId: place.placeId, placeVersion: place.placeVersion };
}

const sameLine = (a: CloudLogLine, b: CloudLogLine) =>
  a.message === b.message && a.type === b.type && a.time === b.time;

/**
 * A run as fetched, with what the live events told meanwhile kept when it is further along. The
 * server keeps a line before it tells it, in the same order, so the lines told and the lines
 * stored are one sequence: the longer list wins when it starts with the shorter (one with a gap,
 * from a socket that was down, does not, and the stored lines win).
 */
export function withLiveCloud(fetched: Run, cached: Run | undefined): Run {
  const stored = fetched.cloud;
  const live = cached?.id === fetched.id ? cached.cloud : undefined;
  if (!stored || !live) return fetched;
  const liveLonger =
    live.logs.length > stored.logs.length && stored.logs.every((line, index) => sameLine(line, live.logs[index]!));
  const liveFurther = STEP[live.state] > STEP[stored.state];
  if (!liveLonger && !liveFurther) return fetched;
  const state = liveFurther ? live.state : stored.state;
  return {
    ...fetched,
    cloudState: state,
    cloud: { ...stored, state, logs: liveLonger ? live.logs : stored.logs },
  };
}

/** A run with an `execution:logs` event applied: its new lines after the ones shown, and its state now. */
export function applyCloudLogs(run: Run, event: CloudRunLogsEvent): Run {
  if (!run.cloud || run.id !== event.executionId) return run;
  const logs = event.lines.length > 0 ? [...run.cloud.logs, ...event.lines].slice(0, LOG_LINES_MAX) : run.cloud.logs;
  return { ...run, cloudState: event.state, cloud: { ...run.cloud, state: event.state, logs } };
}
