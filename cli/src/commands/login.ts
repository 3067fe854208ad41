import { endpoints } from '@moonrelay/contract/endpoints';
import { ApiError, createApi } from '../api.ts';
import {
  configFile,
  maskKey,
  normalizeUrl,
  readUserConfig,
  removeUserConfig,
  writeUserConfig,
  type UserConfig,
} from '../config.ts';
import type { Command, Context } from '../context.ts';
import { EXIT, UsageError } from '../output.ts';
import { findProjectRoot, loadProject } from '../project.ts';

/** Reads the key from a pipe, or asks for it on a terminal without echoing it. */
async function readKey(context: Context): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += String(chunk);
    return text.trim();
  }
  process.stderr.write('API key (Settings → API keys in the dashboard): ');
  return new Promise((resolve, reject) => {
    let key = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(key.trim());
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') key = key.slice(0, -1);
        else key += char;
      }
    };
    stdin.on('data', onData);
    context.signal.addEventListener('abort', () => finish(new UsageError('cancelled')));
  });
}

export const login: Command = {
  name: 'login',
  summary: 'Check an API key against a server and keep both in your config folder',
  help: `Usage: moonrelay login [--url URL] [--key KEY]

Checks the key against the server (one cheap authenticated call) and stores the server and key in
$XDG_CONFIG_HOME/moonrelay/config.json (else ~/.config/moonrelay/config.json), mode 0600, never in
the project. Without --key the key is read from stdin when piped, else asked for without echo.

Options:
  --url URL    The Moonrelay server (default: MOONRELAY_URL, the project's url, the last login)
  --key KEY    The API key (default: MOONRELAY_API_KEY, else stdin or a prompt)

MOONRELAY_URL and MOONRELAY_API_KEY in the environment win over what login stored, for every command.`,
  options: { url: { type: 'string' }, key: { type: 'string' } },
  async run(context, values) {
    const { env, out } = context;
    const stored = readUserConfig(env);
    const root = findProjectRoot(context.cwd);
    const rawUrl =
      (values.url as string | undefined) ??
      env.MOONRELAY_URL ??
      (root ? loadProject(root).data.url : undefined) ??
      stored?.url;
    if (!rawUrl) throw new UsageError('which server? moonrelay login --url https://your-moonrelay.example.com');
    const url = normalizeUrl(rawUrl);
    const key = (values.key as string | undefined) ?? env.MOONRELAY_API_KEY ?? (await readKey(context));
    if (!key) throw new UsageError('no API key given (--key, MOONRELAY_API_KEY, or type it when asked)');

    const api = createApi({ url, key, env });
    try {
      // Any valid key may call the syntax check, whatever its scopes: it reads nothing of the account.
      await api.call(endpoints.checkLua, { body: { code: '' } });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new UsageError(`${url} refused the key: ${error.message}`);
      }
      throw error;
    }
    const config: UserConfig = stored ?? { url, servers: {} };
    config.url = url;
    config.servers[url] = { key, savedAt: new Date().toISOString() };
    const file = writeUserConfig(env, config);
    out.out(`Logged in to ${url} with key ${maskKey(key)} (saved in ${file})`);
    if (env.MOONRELAY_API_KEY && env.MOONRELAY_API_KEY !== key) {
      out.warn('MOONRELAY_API_KEY is set in this environment and wins over the stored key');
    }
    return EXIT.ok;
  },
};

export const logout: Command = {
  name: 'logout',
  summary: 'Forget the stored server and API key',
  help: `Usage: moonrelay logout [--url URL]

Removes the config file login wrote (${'$'}XDG_CONFIG_HOME/moonrelay/config.json or
~/.config/moonrelay/config.json). With --url, forgets that server's key only.`,
  options: { url: { type: 'string' } },
  async run(context, values) {
    const url = values.url === undefined ? undefined : normalizeUrl(values.url as string);
    const file = configFile(context.env);
    if (removeUserConfig(context.env, url)) context.out.out(`Logged out${url ? ` of ${url}` : ''} (${file})`);
    else context.out.out('Not logged in');
    return EXIT.ok;
  },
};
