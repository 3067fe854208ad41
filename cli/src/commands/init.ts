import fs from 'node:fs';
import path from 'node:path';
import { normalizeUrl } from '../config.ts';
import type { Command } from '../context.ts';
import { EXIT, UsageError } from '../output.ts';
import { commonFolder, PROJECT_FILE, rojoPaths, STATE_DIR, toPosix, writeFileAtomic } from '../project.ts';

/** Adds `.moonrelay/` to the folder's .gitignore unless a line already covers it. */
function ignoreState(root: string): boolean {
  const file = path.join(root, '.gitignore');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => [STATE_DIR, `${STATE_DIR}/`, `/${STATE_DIR}`, `/${STATE_DIR}/`].includes(line))) {
    return false;
  }
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  fs.writeFileSync(file, `${text}${separator}# moonrelay's record of what was last pulled and pushed\n${STATE_DIR}/\n`);
  return true;
}

export const init: Command = {
  name: 'init',
  summary: 'Make this folder a moonrelay project (moonrelay.json)',
  help: `Usage: moonrelay init [--dir DIR] [--url URL] [--force]

Writes moonrelay.json, which maps your Luau files to scripts (commit it), and adds .moonrelay/ (the
record of what was last pulled and pushed) to .gitignore.

In a Rojo project (default.project.json) the folder its $path entries share is offered as the
scripts folder; the Rojo project file itself is never changed.

Options:
  --dir DIR    The folder that holds your .luau/.lua files (default: src, or the Rojo $path folder)
  --url URL    Pin the server for everyone who clones the project (else each person's login decides)
  --force      Write moonrelay.json again even if one exists (its scripts are kept)`,
  options: { dir: { type: 'string' }, url: { type: 'string' }, force: { type: 'boolean' } },
  async run(context, values) {
    const { out, cwd } = context;
    const root = cwd;
    const projectFile = path.join(root, PROJECT_FILE);
    let existing: Record<string, unknown> | null = null;
    if (fs.existsSync(projectFile)) {
      if (!values.force) throw new UsageError(`${PROJECT_FILE} already exists here (--force writes it again)`);
      existing = JSON.parse(fs.readFileSync(projectFile, 'utf8')) as Record<string, unknown>;
    }

    let scriptsDir = values.dir as string | undefined;
    const rojo = rojoPaths(root);
    if (scriptsDir === undefined && rojo && rojo.length > 0) {
      scriptsDir = commonFolder(rojo);
      out.info(
        `Rojo project found: using ${scriptsDir}/ (the folder of its $path entries); --dir chooses another. default.project.json is left as it is.`,
      );
    }
    scriptsDir = toPosix(path.normalize(scriptsDir ?? 'src')).replace(/\/$/, '');
    if (path.isAbsolute(scriptsDir) || scriptsDir.startsWith('..')) {
      throw new UsageError(`--dir must be a folder inside this project, not ${scriptsDir}`);
    }

    const data: Record<string, unknown> = {
      ...(values.url ? { url: normalizeUrl(values.url as string) } : existing?.url ? { url: existing.url } : {}),
      scriptsDir,
      scripts: existing?.scripts ?? {},
    };
    writeFileAtomic(projectFile, `${JSON.stringify(data, null, 2)}\n`);
    fs.mkdirSync(path.join(root, scriptsDir), { recursive: true });
    const ignored = ignoreState(root);
    out.out(
      `Wrote ${PROJECT_FILE} (scripts in ${scriptsDir}/)${ignored ? ' and added .moonrelay/ to .gitignore' : ''}`,
    );
    out.info('Next: moonrelay pull (your scripts as files), or moonrelay push (your files as scripts)');
    return EXIT.ok;
  },
};
