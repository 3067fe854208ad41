import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from './output.ts';

/**
 * A project folder: `moonrelay.json` (committed) maps Luau files to scripts of the account, and
 * `.moonrelay/state.json` (ignored by git) remembers what was last pulled or pushed for each file:
 * the script's version, when it was saved, and hashes of the code and settings, so `push` sends only
 * what changed and refuses to overwrite what changed on the server since.
 */

export const PROJECT_FILE = 'moonrelay.json';
export const STATE_DIR = '.moonrelay';
export const STATE_FILE = path.join(STATE_DIR, 'state.json');
export const SCRIPT_EXTENSIONS = ['.luau', '.lua'] as const;

const EntrySchema = z.looseObject({
  id: z.string().min(1),
  /** The script's name when it is not the one the file's name gives (Rojo's rules). */
  name: z.string().optional(),
  description: z.string().optional(),
  autoExecute: z.boolean().optional(),
});
export type Entry = z.infer<typeof EntrySchema>;

const ProjectFileSchema = z.looseObject({
  url: z.string().optional(),
  scriptsDir: z.string().default('src'),
  scripts: z.record(z.string(), EntrySchema).default({}),
});
export type ProjectData = z.infer<typeof ProjectFileSchema>;

const StateSchema = z.object({
  url: z.string().nullable(),
  scripts: z.record(
    z.string(),
    z.object({
      id: z.string(),
      version: z.number().int(),
      updatedAt: z.string(),
      /** sha256 of the code as last pulled or pushed. */
      hash: z.string(),
      /** The name, description and auto-execute flag as last pulled or pushed. */
      meta: z.string(),
    }),
  ),
});
export type State = z.infer<typeof StateSchema>;
export type FileState = State['scripts'][string];

export interface Project {
  root: string;
  data: ProjectData;
  state: State;
  /** Absolute path of a project-relative (posix) file name. */
  abs(file: string): string;
  save(): void;
  saveState(): void;
}

/** The folder holding moonrelay.json, from `start` upwards; null when there is none. */
export function findProjectRoot(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, PROJECT_FILE))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

export function loadProject(root: string, url: string | null = null): Project {
  const projectFile = path.join(root, PROJECT_FILE);
  const parsed = ProjectFileSchema.safeParse(readJson(projectFile));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${projectFile}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const data = parsed.data;
  const stateFile = path.join(root, STATE_FILE);
  let state: State = { url, scripts: {} };
  if (fs.existsSync(stateFile)) {
    const read = StateSchema.safeParse(readJson(stateFile));
    // A state of another server says nothing about this one's scripts.
    if (read.success && (url === null || read.data.url === url)) state = read.data;
  }
  state.url = url;
  return {
    root,
    data,
    state,
    abs: (file) => path.join(root, ...file.split('/')),
    save() {
      const sorted = Object.fromEntries(Object.entries(data.scripts).sort(([a], [b]) => a.localeCompare(b)));
      data.scripts = sorted;
      writeFileAtomic(projectFile, `${JSON.stringify(data, null, 2)}\n`);
    },
    saveState() {
      fs.mkdirSync(path.join(root, STATE_DIR), { recursive: true });
      writeFileAtomic(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    },
  };
}

export function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

export const isScriptFile = (name: string) => SCRIPT_EXTENSIONS.some((extension) => name.endsWith(extension));

/** Luau files under `dir` (relative to `root`, posix separators), skipping dot folders and node_modules. */
export function listScriptFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && isScriptFile(entry.name)) found.push(child);
    }
  };
  walk(toPosix(path.normalize(dir)).replace(/^\.\/?|\/$/g, ''));
  return found.sort();
}

export const toPosix = (file: string) => file.split(path.sep).join('/');

/**
 * The script name a file stands for, by Rojo's rules: `Foo.server.luau` and `Foo.client.luau` are
 * "Foo", `init.luau` (and `init.server.luau`...) is its folder's name.
 */
export function scriptNameOf(file: string, rootName: string): string {
  const parts = file.split('/');
  let stem = parts[parts.length - 1]!.replace(/\.(luau|lua)$/, '').replace(/\.(server|client)$/, '');
  if (stem === 'init') stem = parts.length > 1 ? parts[parts.length - 2]! : rootName;
  return stem;
}

/** A file name for a script name: characters no file system takes become `_`. */
export function fileStemFor(name: string): string {
  // eslint-disable-next-line no-control-regex
  const stem = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  return stem || 'script';
}

export const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

export interface Meta {
  name: string;
  description: string | null;
  autoExecute: boolean;
}

export const metaKey = (meta: Meta) => JSON.stringify([meta.name, meta.description, meta.autoExecute]);

/** The settings moonrelay.json gives a file's script. */
export function metaOf(project: Project, file: string, entry: Entry | undefined): Meta {
  return {
    name: entry?.name ?? scriptNameOf(file, path.basename(project.root)),
    description: entry?.description || null,
    autoExecute: entry?.autoExecute ?? false,
  };
}

/** Writes a script's settings into its entry, leaving out what the file's name or a default says. */
export function setEntryMeta(project: Project, file: string, entry: Entry, meta: Meta): void {
  if (meta.name === scriptNameOf(file, path.basename(project.root))) delete entry.name;
  else entry.name = meta.name;
  if (meta.description) entry.description = meta.description;
  else delete entry.description;
  if (meta.autoExecute) entry.autoExecute = true;
  else delete entry.autoExecute;
}

/** The folders a Rojo project file maps (`$path` entries), relative to its folder. */
export function rojoPaths(root: string): string[] | null {
  const file = path.join(root, 'default.project.json');
  if (!fs.existsSync(file)) return null;
  let tree: unknown;
  try {
    tree = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$path' && typeof value === 'string') found.push(toPosix(path.normalize(value)));
      else if (typeof value === 'object') walk(value);
    }
  };
  walk(tree);
  return found;
}

/** The deepest folder holding every one of `paths` ("src" for src/server and src/shared). */
export function commonFolder(paths: string[]): string {
  const folders = paths.map((p) => (isScriptFile(p) ? path.posix.dirname(p) : p).split('/').filter(Boolean));
  if (folders.length === 0) return '.';
  const first = folders[0]!;
  let length = 0;
  while (length < first.length && folders.every((parts) => parts[length] === first[length])) length++;
  return first.slice(0, length).join('/') || '.';
}
