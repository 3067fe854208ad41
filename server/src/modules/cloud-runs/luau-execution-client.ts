import type { CloudAnswer, CloudCaller } from '../open-cloud/roblox-open-cloud.ts';

/**
 * Roblox's Open Cloud Luau Execution API, as documented: create a task on a place (its newest
 * version, or a pinned one), read it by its path, and page through its logs. Answers are handed back
 * as they came; what they mean is for the caller (cloud-runs.ts).
 */

export type RobloxTaskState = 'QUEUED' | 'PROCESSING' | 'CANCELLED' | 'COMPLETE' | 'FAILED';

export interface RobloxTask {
  path: string;
  state: RobloxTaskState;
  error?: { code?: string; message?: string };
  output?: { results?: unknown[] };
}

export interface RobloxLogLine {
  message: string;
  messageType: string;
  createTime: string | null;
}

const TASK_STATES = new Set<string>(['QUEUED', 'PROCESSING', 'CANCELLED', 'COMPLETE', 'FAILED']);

/** The task in an answer, when the answer holds one. */
export function taskOf(answer: CloudAnswer): RobloxTask | undefined {
  const body = answer.body as Partial<RobloxTask> | null;
  if (!body || typeof body.path !== 'string' || typeof body.state !== 'string' || !TASK_STATES.has(body.state))
    return undefined;
  return body as RobloxTask;
}

/**
 * A page of logs, flattened: Roblox answers `luauExecutionSessionTaskLogs`, a list of log objects
 * each with its `structuredMessages`, and the next page's token (absent or empty on the last page).
 */
export function logPageOf(answer: CloudAnswer): { lines: RobloxLogLine[]; nextPageToken: string | null } {
  const body = answer.body as { luauExecutionSessionTaskLogs?: unknown; nextPageToken?: unknown } | null;
  const lines: RobloxLogLine[] = [];
  const logs = Array.isArray(body?.luauExecutionSessionTaskLogs) ? body.luauExecutionSessionTaskLogs : [];
  for (const log of logs as { structuredMessages?: unknown; messages?: unknown }[]) {
    if (Array.isArray(log?.structuredMessages)) {
      for (const entry of log.structuredMessages as Partial<RobloxLogLine>[])
        lines.push({
          message: typeof entry?.message === 'string' ? entry.message : '',
          messageType: typeof entry?.messageType === 'string' ? entry.messageType : 'OUTPUT',
          createTime: typeof entry?.createTime === 'string' ? entry.createTime : null,
        });
    } else if (Array.isArray(log?.messages)) {
      for (const message of log.messages)
        lines.push({ message: String(message), messageType: 'OUTPUT', createTime: null });
    }
  }
  const next = typeof body?.nextPageToken === 'string' && body.nextPageToken ? body.nextPageToken : null;
  return { lines, nextPageToken: next };
}

/** Roblox's path of a task ("universes/1/places/2/versions/3/luau-execution-sessions/…/tasks/…"), checked. */
const TASK_PATH = /^universes\/\d+\/places\/\d+(?:\/versions\/\d+)?\/luau-execution-sessions\/[\w-]+\/tasks\/[\w-]+$/;
export const isTaskPath = (path: string) => TASK_PATH.test(path);

export function createLuauExecutionClient(call: CloudCaller) {
  return {
    createTask(
      apiKey: string,
      place: { universeId: string; placeId: string; placeVersion: string | null },
      task: { script: string; timeoutSeconds: number },
      signal?: AbortSignal,
    ): Promise<CloudAnswer> {
      const version = place.placeVersion ? `/versions/${encodeURIComponent(place.placeVersion)}` : '';
      const path =
        `/cloud/v2/universes/${encodeURIComponent(place.universeId)}/places/${encodeURIComponent(place.placeId)}` +
        `${version}/luau-execution-session-tasks`;
      return call('POST', path, apiKey, { body: { script: task.script, timeout: `${task.timeoutSeconds}s` }, signal });
    },

    getTask(apiKey: string, taskPath: string, signal?: AbortSignal): Promise<CloudAnswer> {
      return call('GET', `/cloud/v2/${taskPath}`, apiKey, { query: { view: 'BASIC' }, signal });
    },

    listLogs(apiKey: string, taskPath: string, pageToken: string | null, signal?: AbortSignal): Promise<CloudAnswer> {
      const query: Record<string, string> = { view: 'STRUCTURED', maxPageSize: '1000' };
      if (pageToken) query.pageToken = pageToken;
      return call('GET', `/cloud/v2/${taskPath}/logs`, apiKey, { query, signal });
    },
  };
}

export type LuauExecutionClient = ReturnType<typeof createLuauExecutionClient>;
