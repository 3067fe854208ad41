import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { LuaDiagnostic } from '@moonrelay/contract/executions';
import { ApiError, type Api } from '../api.ts';
import type { Command, Context } from '../context.ts';
import { EXIT, plural, UsageError, type Output } from '../output.ts';
import { findProjectRoot, isScriptFile, listScriptFiles, loadProject, toPosix } from '../project.ts';
import { pool, projectFiles } from '../sync.ts';

/**
 * The files a check or format covers, as absolute paths: the ones named (folders searched for
 * .luau and .lua files), else the project's, else those under the current folder.
 */
export function filesToCover(context: Context, paths: string[]): string[] {
  if (paths.length === 0) {
    const root = findProjectRoot(context.cwd);
    if (root) {
      const project = loadProject(root);
      return projectFiles(project)
        .map((file) => project.abs(file))
        .filter((file) => fs.existsSync(file));
    }
    return listScriptFiles(context.cwd, '.').map((file) => path.join(context.cwd, file));
  }
  const files: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(context.cwd, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      throw new UsageError(`no such file or folder: ${given}`);
    }
    if (stat.isDirectory()) files.push(...listScriptFiles(absolute, '.').map((file) => path.join(absolute, file)));
    else files.push(absolute);
  }
  return [...new Set(files)];
}

export const shown = (context: Context, absolute: string) => toPosix(path.relative(context.cwd, absolute)) || '.';

export const diagnosticLine = (file: string, diagnostic: { line: number; column: number; message: string }) =>
  `${file}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.message}`;

/** The server's syntax diagnostics for some code. */
export async function diagnose(api: Api, code: string): Promise<LuaDiagnostic[]> {
  return (await api.call(endpoints.checkLua, { body: { code } })).diagnostics;
}

export const check: Command = {
  name: 'check',
  summary: 'Check Luau syntax with the server; prints file:line:col: message',
  help: `Usage: moonrelay check [PATHS...]

Checks each file with the server's Luau syntax checker (POST /api/lua/check) and prints each
problem as file:line:col: message. Exits 1 when any file has an error, 0 when none has.

PATHS are files or folders (searched for .luau and .lua); without them, the project's files (or
those under the current folder outside a project). Any valid API key may check.`,
  positionals: true,
  async run(context, _values, positionals) {
    const { out } = context;
    const files = filesToCover(context, positionals);
    const api = context.api();
    const found = new Map<string, LuaDiagnostic[]>();
    await pool(files, 8, async (file) => {
      found.set(file, await diagnose(api, fs.readFileSync(file, 'utf8')));
    });
    let errors = 0;
    let failing = 0;
    for (const file of files) {
      const diagnostics = found.get(file) ?? [];
      if (diagnostics.length) failing++;
      for (const diagnostic of diagnostics) {
        errors++;
        out.out(diagnosticLine(shown(context, file), diagnostic));
      }
    }
    out.info(
      errors
        ? `${plural(errors, 'error')} in ${plural(failing, 'file')} (${plural(files.length, 'file')} checked)`
        : `${plural(files.length, 'file')} checked, no errors`,
    );
    return errors ? EXIT.failed : EXIT.ok;
  },
};

/** A format refused for the code's syntax answers 400 with each diagnostic as an issue ("3:5"). */
function syntaxIssues(error: ApiError): { line: number; column: number; message: string }[] {
  return error.issues
    .map((issue) => {
      const [line, column] = issue.path.split(':').map(Number);
      return { line: line!, column: column!, message: issue.message };
    })
    .filter((issue) => Number.isInteger(issue.line) && Number.isInteger(issue.column));
}

async function formatFile(
  api: Api,
  out: Output,
  name: string,
  code: string,
): Promise<{ formatted: string } | { failed: true }> {
  try {
    return { formatted: (await api.call(endpoints.formatLua, { body: { code } })).code };
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) throw error;
    const issues = error.status === 400 ? syntaxIssues(error) : [];
    if (issues.length) for (const issue of issues) out.note(diagnosticLine(name, issue));
    else out.error(`${name}: ${error.message}`);
    return { failed: true };
  }
}

export const format: Command = {
  name: 'format',
  summary: "Format Luau files with the server's formatter (--check lists what would change)",
  help: `Usage: moonrelay format [--check] [PATHS...]

Formats each file with the server's formatter (StyLua, as the dashboard's editor formats) and
writes the files that change. With --check nothing is written: the files that would change are
listed and the exit code is 1 if there are any. A file that does not parse is named with its
syntax errors (file:line:col: message) and the exit code is 1.

PATHS are files or folders; without them, the project's files (or those under the current folder).

Options:
  --check      Write nothing; list the files that would change and exit 1 if any would`,
  options: { check: { type: 'boolean' } },
  positionals: true,
  async run(context, values, positionals) {
    const { out } = context;
    const checkOnly = values.check === true;
    const files = filesToCover(context, positionals).filter(
      (file) => isScriptFile(file) || positionals.some((given) => path.resolve(context.cwd, given) === file),
    );
    const api = context.api();
    const changed: string[] = [];
    let failed = 0;
    await pool(files, 8, async (file) => {
      const name = shown(context, file);
      const code = fs.readFileSync(file, 'utf8');
      const outcome = await formatFile(api, out, name, code);
      if ('failed' in outcome) {
        failed++;
        return;
      }
      if (outcome.formatted === code) return;
      changed.push(name);
      if (!checkOnly) fs.writeFileSync(file, outcome.formatted);
    });
    changed.sort();
    for (const name of changed) out.out(checkOnly ? name : `formatted ${name}`);
    out.info(
      checkOnly
        ? changed.length
          ? `${plural(changed.length, 'file')} would change (${plural(files.length, 'file')} checked)`
          : `${plural(files.length, 'file')} already formatted`
        : `${plural(changed.length, 'file')} formatted, ${files.length - changed.length - failed} unchanged`,
    );
    return failed || (checkOnly && changed.length) ? EXIT.failed : EXIT.ok;
  },
};
