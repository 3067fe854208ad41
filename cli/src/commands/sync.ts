import type { Command, Context } from '../context.ts';
import { EXIT, plural } from '../output.ts';
import {
  applyPush,
  describeConflict,
  explainConflicts,
  planPush,
  pull as pullScripts,
  type PushPlan,
} from '../sync.ts';

function printConflict(context: Context, [first, ...details]: [string, ...string[]]): void {
  context.out.error(first);
  for (const line of details) context.out.note(`  ${line}`);
}

/** Per-file lines are printed for small pushes (or with --verbose); a large one gets its summary. */
const LIST_AT_MOST = 20;

export const pull: Command = {
  name: 'pull',
  summary: "Write every script of the key's account to files",
  help: `Usage: moonrelay pull [--force]

Writes each script of the account to its file (moonrelay.json maps files to scripts; scripts it
does not map yet get a new file in scriptsDir and an entry). A file changed here whose script did
not change on the server is kept for push to send. A file changed both here and on the server is
not overwritten: pull names it and exits 1 (--force takes the server's).

Needs the scripts:read scope.

Options:
  --force      Overwrite files changed here with the server's code
  -q, --quiet  Only the summary and errors (the default when CI=true; --verbose for more)`,
  options: { force: { type: 'boolean' } },
  async run(context, values) {
    const { out } = context;
    const api = context.api();
    const project = context.project();
    const result = await pullScripts(api, project, { force: values.force === true });
    const listEach = !out.quiet && result.written.length <= LIST_AT_MOST;
    for (const { file, script, created } of result.written) {
      if (listEach) out.info(`${created ? 'new' : 'updated'} ${file} (${script.name}, version ${script.version})`);
    }
    for (const file of result.localOnly) out.info(`kept ${file}: changed here, not on the server (push sends it)`);
    for (const file of result.gone) {
      out.warn(`${file}: its script is no longer on the server (the file is kept; remove its entry to push it anew)`);
    }
    out.out(
      `Pulled ${plural(result.written.length, 'file')} from ${api.url}` +
        (result.conflicts.length ? `, ${plural(result.conflicts.length, 'conflict')}` : ''),
    );
    if (result.conflicts.length) {
      await explainConflicts(api, result.conflicts);
      for (const conflict of result.conflicts) printConflict(context, describeConflict(conflict, 'pull'));
      out.error('those files were changed here and on the server: not overwritten (pull --force takes the server’s)');
      return EXIT.failed;
    }
    return EXIT.ok;
  },
};

function printPlan(context: Context, plan: PushPlan, dryRun: boolean): void {
  const { out } = context;
  const verb = dryRun ? 'would ' : '';
  for (const item of plan.updates) {
    const what = [item.body.code !== undefined ? 'code' : null, item.body.name !== undefined ? 'name' : null]
      .concat(item.body.description !== undefined || item.body.isAutoExecute !== undefined ? ['settings'] : [])
      .filter(Boolean)
      .join(', ');
    out.out(`${verb}update ${item.local.file} (${what}; version ${item.server.version} on the server)`);
  }
  for (const local of plan.creates) {
    out.out(
      `${verb}create ${local.file} as "${local.meta.name}"${local.replaces ? ` (its script ${local.replaces} is gone)` : ''}`,
    );
  }
}

/** Runs a push (or its dry run) and prints it; answers the exit code. */
export async function runPush(
  context: Context,
  options: { force: boolean; dryRun: boolean; only?: ReadonlySet<string>; quietWhenNothing?: boolean },
): Promise<{ code: number; pushed: { file: string; version: number; created: boolean }[] }> {
  const { out } = context;
  const api = context.api();
  const project = context.project();
  const plan = await planPush(api, project, { force: options.force, only: options.only });
  const nothing: { file: string; version: number; created: boolean }[] = [];
  for (const file of plan.missing) out.warn(`${file} is in moonrelay.json but not on disk: its script is left alone`);
  for (const { file, message } of plan.invalid) out.error(`${file}: ${message}`);
  if (plan.conflicts.length) {
    await explainConflicts(api, plan.conflicts);
    for (const conflict of plan.conflicts) printConflict(context, describeConflict(conflict, 'push'));
    out.error(
      `${options.dryRun ? 'push would refuse' : 'nothing was pushed'}: moonrelay pull takes the server’s changes, push --force overwrites them`,
    );
    if (!options.dryRun) return { code: EXIT.failed, pushed: nothing };
  }
  if (plan.invalid.length && !options.dryRun) {
    out.error('nothing was pushed: fix those files first');
    return { code: EXIT.usage, pushed: nothing };
  }
  const total = plan.creates.length + plan.updates.length;
  if (options.dryRun) {
    printPlan(context, plan, true);
    if (total === 0 && !plan.conflicts.length) out.out('Nothing to push');
    return { code: plan.conflicts.length ? EXIT.failed : plan.invalid.length ? EXIT.usage : EXIT.ok, pushed: nothing };
  }
  if (total === 0) {
    if (plan.same.length) project.saveState();
    if (!options.quietWhenNothing) out.out('Nothing to push');
    return { code: EXIT.ok, pushed: nothing };
  }
  const result = await applyPush(api, project, plan, out);
  const pushed = [
    ...result.updated.map(({ file, script }) => ({ file, version: script.version, created: false })),
    ...result.created.map(({ file, script }) => ({ file, version: script.version, created: true })),
  ].sort((a, b) => a.file.localeCompare(b.file));
  return { code: EXIT.ok, pushed };
}

export const push: Command = {
  name: 'push',
  summary: 'Send changed files as new versions of their scripts (new files create scripts)',
  help: `Usage: moonrelay push [--dry-run] [--force]

Sends the files whose code (or settings in moonrelay.json) changed since they were last pulled or
pushed; each becomes a new version of its script. Files moonrelay.json does not map yet create new
scripts and get an entry. Unchanged files are not sent.

A script changed on the server since your last pull is not overwritten: push names it, with both
versions' times and who saved the server's, sends nothing and exits 1 (--force overwrites).

Needs the scripts:read and scripts:write scopes.

Options:
  --dry-run    List what would be sent, send nothing (exit 1 if push would refuse)
  --force      Overwrite scripts changed on the server since your last pull
  -q, --quiet  Only the summary and errors (the default when CI=true; --verbose for more)`,
  options: { 'dry-run': { type: 'boolean' }, force: { type: 'boolean' } },
  async run(context, values) {
    const { out } = context;
    const { code, pushed } = await runPush(context, {
      force: values.force === true,
      dryRun: values['dry-run'] === true,
    });
    if (pushed.length === 0) return code;
    if (!out.quiet && pushed.length <= LIST_AT_MOST) {
      for (const { file, version, created } of pushed) {
        out.out(`${created ? 'created' : 'pushed'} ${file} (version ${version})`);
      }
    }
    const created = pushed.filter((item) => item.created).length;
    out.out(
      `Pushed ${plural(pushed.length, 'file')} to ${context.api().url}` +
        (created ? ` (${created} new ${created === 1 ? 'script' : 'scripts'})` : ''),
    );
    return code;
  },
};
