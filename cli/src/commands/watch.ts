import fs from 'node:fs';
import path from 'node:path';
import type { Command, Context } from '../context.ts';
import { clock, EXIT } from '../output.ts';
import { isScriptFile, listScriptFiles, toPosix } from '../project.ts';
import { diagnose, diagnosticLine } from './lua.ts';
import { runPush } from './sync.ts';

const DEBOUNCE_MS = 300;
const POLL_MS = 500;

/** Calls `changed` with the project-relative files that changed (null: anything may have). */
function watchFolder(
  context: Context,
  root: string,
  scriptsDir: string,
  changed: (file: string | null) => void,
  poll: boolean,
): { close(): void; how: string } {
  const dir = path.join(root, scriptsDir);
  const relevant = (relative: string) =>
    isScriptFile(relative) && !relative.split('/').some((part) => part.startsWith('.') || part === 'node_modules');
  if (!poll) {
    try {
      const watcher = fs.watch(dir, { recursive: true }, (_event, filename) => {
        if (filename === null) return changed(null);
        const relative = toPosix(String(filename));
        if (relevant(relative)) changed(path.posix.join(scriptsDir === '.' ? '' : scriptsDir, relative));
      });
      watcher.on('error', (error) => {
        context.out.warn(`watching stopped (${error.message}); checking every ${POLL_MS} ms instead`);
        watcher.close();
        fallback = startPolling();
      });
      let fallback: { close(): void } | undefined;
      return {
        how: 'file events',
        close: () => {
          watcher.close();
          fallback?.close();
        },
      };
    } catch (error) {
      context.out.warn(`cannot watch ${dir} (${(error as Error).message}); checking every ${POLL_MS} ms instead`);
    }
  }
  const polling = startPolling();
  return { how: `a check every ${POLL_MS} ms`, close: () => polling.close() };

  function startPolling() {
    const snapshot = () => {
      const seen = new Map<string, string>();
      for (const file of listScriptFiles(root, scriptsDir)) {
        try {
          const stat = fs.statSync(path.join(root, file));
          seen.set(file, `${stat.mtimeMs}:${stat.size}`);
        } catch {
          // Deleted between the listing and the stat: the next look sees it gone.
        }
      }
      return seen;
    };
    let last = snapshot();
    const timer = setInterval(() => {
      const now = snapshot();
      for (const [file, mark] of now) if (last.get(file) !== mark) changed(file);
      for (const file of last.keys()) if (!now.has(file)) changed(file);
      last = now;
    }, POLL_MS);
    return { close: () => clearInterval(timer) };
  }
}

export const watch: Command = {
  name: 'watch',
  summary: 'Push each file when you save it, and print its syntax diagnostics',
  help: `Usage: moonrelay watch [--poll]

Watches the project's scripts folder and pushes a file when it is saved (after 300 ms without
another save), as push does: only files that changed, never over a script changed on the server
since your last pull (that file is named and left until you pull, or push --force). Each push is
printed with the file's syntax diagnostics (file:line:col: message). Ctrl-C stops.

Options:
  --poll       Look for changes every 500 ms instead of using file system events
               (network drives, containers; used anyway where events are not available)`,
  options: { poll: { type: 'boolean' } },
  async run(context, values) {
    const { out } = context;
    const project = context.project();
    const api = context.api();
    const pending = new Set<string>();
    let everything = false;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;

    const pushPending = async () => {
      while (pending.size || everything) {
        const only = everything ? undefined : new Set(pending);
        pending.clear();
        everything = false;
        try {
          const { pushed } = await runPush(context, { force: false, dryRun: false, only, quietWhenNothing: true });
          for (const { file, version, created } of pushed) {
            out.out(`${out.color.gray(clock())} ${created ? 'created' : 'pushed'} ${file} (version ${version})`);
            let code: string;
            try {
              code = fs.readFileSync(project.abs(file), 'utf8');
            } catch {
              continue;
            }
            for (const diagnostic of await diagnose(api, code)) out.out(`  ${diagnosticLine(file, diagnostic)}`);
          }
        } catch (error) {
          out.error((error as Error).message);
        }
      }
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running ??= pushPending().finally(() => {
          running = undefined;
          // Saves noted as the last round ended are pushed by the next.
          if (pending.size || everything) arm();
        });
      }, DEBOUNCE_MS);
    };
    const schedule = (file: string | null) => {
      if (file === null) everything = true;
      else pending.add(file);
      arm();
    };

    const watcher = watchFolder(context, project.root, project.data.scriptsDir, schedule, values.poll === true);
    out.info(`Watching ${project.data.scriptsDir}/ for changes with ${watcher.how} (Ctrl-C to stop)`);
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    watcher.close();
    clearTimeout(timer);
    await running;
    return EXIT.ok;
  },
};
