import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { UsageError, type Env } from './output.ts';

/**
 * Where `moonrelay login` keeps the server and its API key: the user's config directory, never the
 * project. `$XDG_CONFIG_HOME/moonrelay/config.json`, else `~/.config/moonrelay/config.json` (on
 * Windows `%APPDATA%\moonrelay\config.json`), written with mode 0600 in a 0700 directory.
 */
export function configDir(env: Env): string {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'moonrelay');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'moonrelay');
  return path.join(env.HOME || os.homedir(), '.config', 'moonrelay');
}

export const configFile = (env: Env) => path.join(configDir(env), 'config.json');

const UserConfigSchema = z.object({
  /** The server commands use when neither MOONRELAY_URL nor the project names one. */
  url: z.string(),
  /** A key per server signed in to, so a project that names its server finds its key. */
  servers: z.record(z.string(), z.object({ key: z.string(), savedAt: z.string().optional() })),
});
export type UserConfig = z.infer<typeof UserConfigSchema>;

export function readUserConfig(env: Env): UserConfig | null {
  const file = configFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return UserConfigSchema.parse(JSON.parse(text));
  } catch {
    throw new UsageError(`${file} is not a moonrelay config file: run moonrelay logout, then moonrelay login`);
  }
}

/** Writes the config readable by its owner only (the file holds API keys). */
export function writeUserConfig(env: Env, config: UserConfig): string {
  const dir = configDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is masked by the umask; say it outright.
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}

/** Forgets one server's key, or everything; answers whether there was anything to forget. */
export function removeUserConfig(env: Env, url?: string): boolean {
  const config = readUserConfig(env);
  if (!config) return false;
  if (url === undefined || Object.keys(config.servers).length <= 1) {
    if (url !== undefined && !config.servers[url]) return false;
    fs.rmSync(configFile(env), { force: true });
    return true;
  }
  if (!config.servers[url]) return false;
  delete config.servers[url];
  if (config.url === url) config.url = Object.keys(config.servers)[0]!;
  writeUserConfig(env, config);
  return true;
}

/** `https://x.example/` and `https://x.example` are the same server; anything but http(s) is refused. */
export function normalizeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`not a URL: ${value} (expected something like https://moonrelay.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`not an http(s) URL: ${value}`);
  }
  return url.toString().replace(/\/+$/, '');
}

export interface Credentials {
  url: string;
  key: string;
  /** Where each came from, for messages. */
  urlFrom: 'environment' | 'moonrelay.json' | 'login';
}

const NOT_LOGGED_IN =
  'not logged in: run moonrelay login --url URL (or set MOONRELAY_URL and MOONRELAY_API_KEY in the environment)';

/**
 * The server and key a command uses. The environment wins (MOONRELAY_URL, MOONRELAY_API_KEY), then
 * the project's `url` (moonrelay.json), then the server of the last login; the key is the
 * environment's or the one stored for that server.
 */
export function resolveCredentials(env: Env, projectUrl?: string): Credentials {
  const config = readUserConfig(env);
  let url: string;
  let urlFrom: Credentials['urlFrom'];
  if (env.MOONRELAY_URL) [url, urlFrom] = [normalizeUrl(env.MOONRELAY_URL), 'environment'];
  else if (projectUrl) [url, urlFrom] = [normalizeUrl(projectUrl), 'moonrelay.json'];
  else if (config) [url, urlFrom] = [config.url, 'login'];
  else throw new UsageError(NOT_LOGGED_IN);
  const key = env.MOONRELAY_API_KEY || config?.servers[url]?.key;
  if (!key) {
    throw new UsageError(
      urlFrom === 'moonrelay.json'
        ? `no API key for ${url} (the server moonrelay.json names): run moonrelay login --url ${url}, or set MOONRELAY_API_KEY`
        : NOT_LOGGED_IN,
    );
  }
  return { url, key, urlFrom };
}

/** A key as messages show it: its first 8 characters and its last 4. */
export const maskKey = (key: string) => (key.length > 16 ? `${key.slice(0, 8)}…${key.slice(-4)}` : '…');
