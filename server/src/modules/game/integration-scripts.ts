import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { IntegrationScripts } from '@moonrelay/contract/game';

/**
 * The three scripts of the Integration panel (lua/integration/*.lua), filled in with this server's
 * public URL and the user's API key. The templates hold `{{SERVER_URL}}` and `{{API_KEY}}` inside
 * Lua double-quoted strings (or a comment), so every value is escaped for such a string; the key in
 * the Quick Loader's query string is URL-encoded first. Placeholders are replaced in one pass, so
 * a value that itself contains `{{API_KEY}}` is never expanded again.
 */

/** The scripts themselves; the answer's `reachability` is judged beside them (http/reachability.ts). */
export type IntegrationScriptTexts = Omit<IntegrationScripts, 'reachability'>;

export interface IntegrationScriptInput {
  /** The server's public base URL, http(s)://host[:port][/prefix]; a trailing slash is dropped. */
  serverUrl: string;
  apiKey: string;
}

// The scripts are files of the Lua package, found the way its other files are: through the package.
const luaFile = (file: string) => createRequire(import.meta.url).resolve(`@moonrelay/lua/integration/${file}`);
const TEMPLATE_FILES = {
  quickLoader: 'quick-loader.lua',
  gameIntegration: 'game-integration.lua',
  teleportExample: 'teleport-example.lua',
} as const satisfies Record<keyof IntegrationScriptTexts, string>;

type TemplateName = keyof typeof TEMPLATE_FILES;
type Values = Record<'SERVER_URL' | 'API_KEY', string>;

const PLACEHOLDER = /\{\{(SERVER_URL|API_KEY)\}\}/g;

let templates: Record<TemplateName, string> | undefined;

/** Read on first use, then kept: the files ship with the server and do not change while it runs. */
function loadTemplates(): Record<TemplateName, string> {
  templates ??= Object.fromEntries(
    Object.entries(TEMPLATE_FILES).map(([name, file]) => [name, readFileSync(luaFile(file), 'utf8')]),
  ) as Record<TemplateName, string>;
  return templates;
}

/**
 * Escapes text for the inside of a Lua double-quoted string, in a form Luau and Lua 5.4 both read:
 * backslash, quote, and every control character (as a three-digit decimal escape, so a digit that
 * follows cannot extend it).
 */
export function escapeLuaString(value: string): string {
  // Matching control characters is the point here.
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\\"\u0000-\u001f\u007f]/g, (char) => {
    if (char === '\\') return '\\\\';
    if (char === '"') return '\\"';
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return `\\${char.charCodeAt(0).toString().padStart(3, '0')}`;
  });
}

/** The base URL the game calls, or an error: only http(s), no credentials, query or fragment. */
export function normaliseServerUrl(serverUrl: string): string {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    throw new Error(`The server URL is not a valid URL: ${serverUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The server URL must start with http:// or https://: ${serverUrl}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`The server URL must not carry credentials, a query or a fragment: ${serverUrl}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function fill(template: string, values: Values): string {
  return template.replace(PLACEHOLDER, (_match, name: keyof Values) => escapeLuaString(values[name]));
}

function values({ serverUrl, apiKey }: IntegrationScriptInput): Values {
  return { SERVER_URL: normaliseServerUrl(serverUrl), API_KEY: apiKey };
}

/** The Full Game Integration Script (also what GET /api/game/loader answers). */
export function renderGameIntegration(input: IntegrationScriptInput): string {
  return fill(loadTemplates().gameIntegration, values(input));
}

export function renderIntegrationScripts(input: IntegrationScriptInput): IntegrationScriptTexts {
  const filled = values(input);
  const all = loadTemplates();
  return {
    // One line, as the panel shows it: the file's final newline is not part of the script.
    quickLoader: fill(all.quickLoader.trim(), { ...filled, API_KEY: encodeURIComponent(filled.API_KEY) }),
    gameIntegration: fill(all.gameIntegration, filled),
    teleportExample: fill(all.teleportExample, filled),
  };
}
