import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, WEB_DIST_DIR } from './paths.ts';

const run = promisify(execFile);

/** What the built app is made of: a change to any of these makes web/dist stale. */
const SOURCES = [
  path.join(REPO_ROOT, 'web/src'),
  path.join(REPO_ROOT, 'contract/src'),
  path.join(REPO_ROOT, 'web/index.html'),
  path.join(REPO_ROOT, 'web/vite.config.ts'),
  path.join(REPO_ROOT, 'web/build'),
  path.join(REPO_ROOT, 'web/package.json'),
  // Shipped in the build as the guide the Game Integration panel links.
  path.join(REPO_ROOT, 'docs/connect-a-real-game.md'),
];

/**
 * The newest modification time among the sources. Directories count too: deleting or renaming a
 * file changes its folder's mtime, and that must make the build stale as well.
 */
function newestSourceMtime(): number {
  let newest = 0;
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(entry);
    } catch {
      // Removed while we walked (an editor saving atomically): its folder's mtime counts.
      return;
    }
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  for (const source of SOURCES) visit(source);
  return newest;
}

function builtMtime(): number | undefined {
  try {
    return fs.statSync(path.join(WEB_DIST_DIR, 'index.html')).mtimeMs;
  } catch {
    // Not built yet.
    return undefined;
  }
}

/** True when web/dist/index.html is newer than every source file and folder. */
export function isWebBuildFresh(): boolean {
  const built = builtMtime();
  return built !== undefined && built > newestSourceMtime();
}

// Two test processes (or an engineer's `npm run build`) must not build into web/dist at once.
const lockDir = path.join(
  os.tmpdir(),
  `moonrelay-e2e-build-${crypto.createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`,
);
/** A build takes seconds; a lock older than this was left by a run that died. */
const STALE_LOCK_MS = 90_000;

function lockIsStale(): boolean {
  const stat = fs.statSync(lockDir, { throwIfNoEntry: false });
  if (!stat) return false;
  if (Date.now() - stat.mtimeMs > STALE_LOCK_MS) return true;
  let owner: number;
  try {
    owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
  } catch {
    // Just taken (the pid is not written yet) or just released: either way, not stale.
    return false;
  }
  if (!owner) return false;
  try {
    process.kill(owner, 0);
    return false;
  } catch (error) {
    // ESRCH: the process that took the lock is gone. EPERM: it exists under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockIsStale()) fs.rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

let built: Promise<void> | undefined;

/**
 * Makes web/dist the current app: runs `npm run build` (at the repository root) unless
 * web/dist/index.html is newer than every file under web/src and contract/src. Once per test file:
 * Vitest gives each file its own module instance, so the memo below lives as long as the file.
 */
export function ensureWebBuilt(): Promise<void> {
  built ??= withBuildLock(async () => {
    if (isWebBuildFresh()) return;
    const startedAt = new Date();
    try {
      // Vitest sets NODE_ENV=test, and a Vite build run with it inherited bundles React's
      // development build (jsxDEV, owner stacks): the browser tests must see what ships.
      await run('npm', ['run', 'build'], {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_ENV: 'production' },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 5 * 60_000,
      });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
      throw new Error(`npm run build failed; the browser tests need the current web app.\n${output}`);
    }
    // Vite read the sources somewhere between start and end: date the build at its start, so a file
    // saved while Vite ran still counts as newer and the next test file builds again.
    fs.utimesSync(path.join(WEB_DIST_DIR, 'index.html'), startedAt, startedAt);
    if (!isWebBuildFresh()) {
      console.warn('[e2e] web/src or contract/src changed during the build; web/dist may be one edit behind.');
    }
  });
  return built;
}
