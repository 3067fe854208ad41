import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { ScriptVersionSummary } from '@moonrelay/contract/script-versions';
import {
  CreateScriptRequestSchema,
  UpdateScriptRequestSchema,
  type Script,
  type UpdateScriptRequest,
} from '@moonrelay/contract/scripts';
import { ApiError, type Api } from './api.ts';
import type { Output } from './output.ts';
import {
  fileStemFor,
  listScriptFiles,
  metaKey,
  metaOf,
  setEntryMeta,
  sha256,
  type Entry,
  type FileState,
  type Meta,
  type Project,
} from './project.ts';

/**
 * Pull and push. A file's record (.moonrelay/state.json) says which version of its script it was
 * last in step with; a push sends only files whose code or settings differ from that record, and
 * only when the script is still at that version on the server (else it changed there since, and the
 * push is refused unless forced). A pull writes what changed on the server into files that did not
 * change here, and refuses to overwrite a file changed on both sides unless forced.
 */

/** Calls at once: enough to hide the round trips, few enough not to crowd the server. */
const CONCURRENCY = 8;
/** Above this many scripts to compare, one list of every script is cheaper than one call per script. */
const LIST_ABOVE = 8;

export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

interface LocalFile {
  file: string;
  code: string;
  hash: string;
  entry: Entry | undefined;
  meta: Meta;
}

export interface Conflict {
  file: string;
  id: string;
  /** What this folder last pulled or pushed (absent: no record of it here). */
  base: FileState | undefined;
  /** The script as the server has it now; null when it was deleted there. */
  server: Script | null;
  /** The server's newest version, with who saved it (when the API says). */
  latest?: ScriptVersionSummary;
}

export interface PushPlan {
  creates: (LocalFile & { replaces?: string })[];
  updates: { local: LocalFile; server: Script; body: UpdateScriptRequest }[];
  /** Files whose script already holds the same code and settings: only their record is written. */
  same: { local: LocalFile; server: Script }[];
  conflicts: Conflict[];
  /** Files moonrelay.json maps that are not on disk (their scripts are left alone). */
  missing: string[];
  invalid: { file: string; message: string }[];
}

const stateOf = (project: Project, file: string, entry: Entry | undefined): FileState | undefined => {
  const state = project.state.scripts[file];
  return state && entry && state.id === entry.id ? state : undefined;
};

const serverMeta = (script: Script): Meta => ({
  name: script.name,
  description: script.description || null,
  autoExecute: script.isAutoExecute,
});

const record = (project: Project, file: string, script: Script, hash = sha256(script.code)) => {
  project.state.scripts[file] = {
    id: script.id,
    version: script.version,
    updatedAt: script.updatedAt,
    hash,
    meta: metaKey(serverMeta(script)),
  };
};

function readLocal(project: Project, file: string): LocalFile | null {
  let code: string;
  try {
    code = fs.readFileSync(project.abs(file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const entry = project.data.scripts[file];
  return { file, code, hash: sha256(code), entry, meta: metaOf(project, file, entry) };
}

/** Every file of the project: those under scriptsDir, and those moonrelay.json maps elsewhere. */
export function projectFiles(project: Project): string[] {
  const files = new Set(listScriptFiles(project.root, project.data.scriptsDir));
  for (const file of Object.keys(project.data.scripts)) files.add(file);
  return [...files].sort();
}

function issues(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : result.error!.issues.map((issue) => issue.message).join('; ');
}

/** What a push would do: which files changed since their record, and whether the server moved on. */
export async function planPush(
  api: Api,
  project: Project,
  options: { force: boolean; only?: ReadonlySet<string> },
): Promise<PushPlan> {
  const plan: PushPlan = { creates: [], updates: [], same: [], conflicts: [], missing: [], invalid: [] };
  const candidates: LocalFile[] = [];
  for (const file of projectFiles(project)) {
    if (options.only && !options.only.has(file)) continue;
    const local = readLocal(project, file);
    if (!local) {
      plan.missing.push(file);
      continue;
    }
    if (!local.entry) {
      const problem = issues(
        CreateScriptRequestSchema.safeParse({
          name: local.meta.name,
          code: local.code,
          description: local.meta.description,
          isAutoExecute: local.meta.autoExecute,
        }),
      );
      if (problem) plan.invalid.push({ file, message: problem });
      else plan.creates.push(local);
      continue;
    }
    const state = stateOf(project, file, local.entry);
    if (state && state.hash === local.hash && state.meta === metaKey(local.meta)) continue;
    candidates.push(local);
  }
  if (candidates.length === 0) return plan;

  const servers = new Map<string, Script | null>();
  if (candidates.length > LIST_ABOVE) {
    for (const script of await api.call(endpoints.listScripts)) servers.set(script.id, script);
  } else {
    await pool(candidates, CONCURRENCY, async (local) => {
      try {
        servers.set(local.entry!.id, await api.call(endpoints.getScript, { params: { id: local.entry!.id } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) servers.set(local.entry!.id, null);
        else throw error;
      }
    });
  }

  for (const local of candidates) {
    const { file, entry } = local;
    const server = servers.get(entry!.id) ?? null;
    const base = stateOf(project, file, entry);
    if (!server) {
      if (options.force) plan.creates.push({ ...local, replaces: entry!.id });
      else plan.conflicts.push({ file, id: entry!.id, base, server: null });
      continue;
    }
    const theirs = serverMeta(server);
    const body: UpdateScriptRequest = {};
    if (server.code !== local.code) body.code = local.code;
    if (theirs.name !== local.meta.name) body.name = local.meta.name;
    if (theirs.description !== local.meta.description) body.description = local.meta.description;
    if (theirs.autoExecute !== local.meta.autoExecute) body.isAutoExecute = local.meta.autoExecute;
    if (Object.keys(body).length === 0) {
      plan.same.push({ local, server });
      continue;
    }
    if (!options.force && (!base || base.version !== server.version)) {
      plan.conflicts.push({ file, id: server.id, base, server });
      continue;
    }
    // Unless forced, the save names the version it was made on: a save from the dashboard landing
    // between this read and the write is refused by the server (409), never overwritten unseen.
    if (!options.force) body.baseVersion = server.version;
    const problem = issues(UpdateScriptRequestSchema.safeParse(body));
    if (problem) plan.invalid.push({ file, message: problem });
    else plan.updates.push({ local, server, body });
  }
  return plan;
}

/** Fills in who saved each conflicting script's newest version (the first few: one call each). */
export async function explainConflicts(api: Api, conflicts: Conflict[]): Promise<void> {
  await pool(conflicts.filter((conflict) => conflict.server).slice(0, 10), CONCURRENCY, async (conflict) => {
    try {
      const versions = await api.call(endpoints.listScriptVersions, { params: { id: conflict.id } });
      conflict.latest = versions.items[0];
    } catch {
      // Who changed it is extra detail (the key may lack scripts:read); the conflict stands without it.
    }
  });
}

export const when = (iso: string) => iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');

function savedHow(version: ScriptVersionSummary): string {
  const who = version.savedBy ? ` by ${version.savedBy}` : '';
  if (version.savedVia === 'restore') return `${who} (a restore of version ${version.restoredFrom})`;
  if (version.savedVia === 'key') return `${who} with the API key "${version.savedByKey}"`;
  return `${who} in the dashboard`;
}

/** The lines that tell one conflict (the first the error, the rest its details): both sides' versions and times, and who changed the server's. */
export function describeConflict(conflict: Conflict, side: 'push' | 'pull'): [string, ...string[]] {
  const { file, base, server, latest } = conflict;
  if (!server) {
    return [
      `${file}: its script (${conflict.id}) is gone from the server`,
      side === 'push'
        ? 'push --force creates it again'
        : 'remove its entry from moonrelay.json to push it as a new script',
    ];
  }
  const saved =
    latest && latest.number === server.version
      ? `${when(latest.createdAt)}${savedHow(latest)}`
      : `${when(server.updatedAt)}${server.lastChangedByKey ? ` with the API key "${server.lastChangedByKey}"` : ''}`;
  return [
    base
      ? `${file}: changed on the server since your last pull`
      : `${file}: differs from the server, and this folder has no record of pulling it`,
    ...(base ? [`you last pulled version ${base.version}, saved ${when(base.updatedAt)}`] : []),
    `the server has version ${server.version}, saved ${saved}`,
  ];
}

export interface PushResult {
  created: { file: string; script: Script }[];
  updated: { file: string; script: Script }[];
}

/** Sends the plan's creates and updates, recording each as it lands (a failure keeps what landed). */
export async function applyPush(api: Api, project: Project, plan: PushPlan, out: Output): Promise<PushResult> {
  const result: PushResult = { created: [], updated: [] };
  for (const { local, server } of plan.same) record(project, local.file, server, local.hash);
  const total = plan.creates.length + plan.updates.length;
  let done = 0;
  const tick = () => {
    done++;
    if (total >= 10) out.progress(`Pushing ${done}/${total}…`);
  };
  type Job =
    { kind: 'create'; local: PushPlan['creates'][number] } | { kind: 'update'; item: PushPlan['updates'][number] };
  const jobs: Job[] = [
    ...plan.updates.map((item) => ({ kind: 'update' as const, item })),
    ...plan.creates.map((local) => ({ kind: 'create' as const, local })),
  ];
  try {
    await pool(jobs, CONCURRENCY, async (job) => {
      const file = job.kind === 'create' ? job.local.file : job.item.local.file;
      try {
        if (job.kind === 'update') {
          const script = await api.call(endpoints.updateScript, {
            params: { id: job.item.server.id },
            body: job.item.body,
          });
          record(project, file, script, job.item.local.hash);
          result.updated.push({ file, script });
        } else {
          const { local } = job;
          const script = await api.call(endpoints.createScript, {
            body: {
              name: local.meta.name,
              code: local.code,
              ...(local.meta.description ? { description: local.meta.description } : {}),
              ...(local.meta.autoExecute ? { isAutoExecute: true } : {}),
            },
          });
          const entry: Entry = { ...(local.entry ?? {}), id: script.id };
          setEntryMeta(project, file, entry, serverMeta(script));
          project.data.scripts[file] = entry;
          record(project, file, script, local.hash);
          result.created.push({ file, script });
        }
        tick();
      } catch (error) {
        if (error instanceof Error) error.message = `${file}: ${error.message}`;
        throw error;
      }
    });
  } finally {
    out.done();
    if (result.created.length) project.save();
    project.saveState();
  }
  return result;
}

export interface PullResult {
  written: { file: string; script: Script; created: boolean }[];
  conflicts: Conflict[];
  /** Files changed here whose script did not change on the server: push sends them. */
  localOnly: string[];
  /** Files whose script is no longer on the server. */
  gone: string[];
}

function newFileFor(project: Project, script: Script, taken: Set<string>): string {
  const dir = project.data.scriptsDir.replace(/^\.\/?$/, '');
  const stem = fileStemFor(script.name);
  for (let n = 1; ; n++) {
    const file = path.posix.join(dir, `${stem}${n === 1 ? '' : ` (${n})`}.luau`);
    if (!taken.has(file) && !fs.existsSync(project.abs(file))) return file;
  }
}

/** Writes every script of the account to its file, and records what was written. */
export async function pull(api: Api, project: Project, options: { force: boolean }): Promise<PullResult> {
  const scripts = await api.call(endpoints.listScripts);
  const result: PullResult = { written: [], conflicts: [], localOnly: [], gone: [] };
  const fileOf = new Map(Object.entries(project.data.scripts).map(([file, entry]) => [entry.id, file]));
  const taken = new Set(Object.keys(project.data.scripts));
  const write = (file: string, script: Script, created: boolean) => {
    fs.mkdirSync(path.dirname(project.abs(file)), { recursive: true });
    fs.writeFileSync(project.abs(file), script.code);
    const entry: Entry = project.data.scripts[file] ?? { id: script.id };
    setEntryMeta(project, file, entry, serverMeta(script));
    project.data.scripts[file] = entry;
    record(project, file, script);
    result.written.push({ file, script, created });
  };
  // Oldest first, so that two scripts of one name get their files in the order they were made.
  for (const script of [...scripts].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    const file = fileOf.get(script.id);
    if (!file) {
      const chosen = newFileFor(project, script, taken);
      taken.add(chosen);
      write(chosen, script, true);
      continue;
    }
    const local = readLocal(project, file);
    if (!local) {
      write(file, script, false);
      continue;
    }
    const base = stateOf(project, file, local.entry);
    const serverChanged = !base || base.version !== script.version;
    if (local.hash === sha256(script.code)) {
      if (serverChanged) setEntryMeta(project, file, local.entry!, serverMeta(script));
      record(project, file, script);
      continue;
    }
    if (!serverChanged) {
      result.localOnly.push(file);
      continue;
    }
    if (base?.hash === local.hash || options.force) write(file, script, false);
    else result.conflicts.push({ file, id: script.id, base, server: script });
  }
  const onServer = new Set(scripts.map((script) => script.id));
  for (const [file, entry] of Object.entries(project.data.scripts)) {
    if (!onServer.has(entry.id)) result.gone.push(file);
  }
  project.save();
  project.saveState();
  return result;
}
