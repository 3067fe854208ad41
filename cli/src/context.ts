import type { ParseArgsConfig } from 'node:util';
import { createApi, type Api } from './api.ts';
import { resolveCredentials } from './config.ts';
import { UsageError, type Env, type Output } from './output.ts';
import { findProjectRoot, loadProject, PROJECT_FILE, type Project } from './project.ts';

/** What a command runs with: its environment, folder, output, and the API once it asks for it. */
export interface Context {
  env: Env;
  cwd: string;
  out: Output;
  /** The API with the credentials in force here (environment, the project's url, the login). */
  api(): Api;
  /** The project this folder is in (moonrelay.json here or above), with its state for the server in use. */
  project(): Project;
  /** The project, if this folder is in one. */
  maybeProject(): Project | null;
  /** Stops long-running commands (watch, logs --follow, waiting runs) on Ctrl-C. */
  signal: AbortSignal;
}

export function createContext(env: Env, cwd: string, out: Output, signal: AbortSignal): Context {
  let api: Api | undefined;
  let project: Project | null | undefined;
  const projectUrl = () => {
    const root = findProjectRoot(cwd);
    return root ? loadProject(root).data.url : undefined;
  };
  const context: Context = {
    env,
    cwd,
    out,
    signal,
    api() {
      if (!api) {
        const credentials = resolveCredentials(env, projectUrl());
        api = createApi({
          url: credentials.url,
          key: credentials.key,
          env,
          onWait: (seconds, why) => out.info(`waiting ${seconds} s for ${why}…`),
        });
      }
      return api;
    },
    maybeProject() {
      if (project === undefined) {
        const root = findProjectRoot(cwd);
        project = root ? loadProject(root, context.api().url) : null;
      }
      return project;
    },
    project() {
      const found = context.maybeProject();
      if (!found) throw new UsageError(`no ${PROJECT_FILE} here or above: run moonrelay init first`);
      return found;
    },
  };
  return context;
}

/** A command as `moonrelay --help` lists it and main.ts runs it. */
export interface Command {
  name: string;
  /** One line for `moonrelay --help`. */
  summary: string;
  /** The full `moonrelay <command> --help`. */
  help: string;
  options?: ParseArgsConfig['options'];
  positionals?: boolean;
  run(
    context: Context,
    values: Record<string, string | boolean | string[] | boolean[] | undefined>,
    positionals: string[],
  ): Promise<number>;
}
