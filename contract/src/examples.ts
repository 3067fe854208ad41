import { CLOUD_RUN_ERRORS } from './cloud-runs.ts';
import type { ErrorResponse } from './common.ts';
import type { EndpointAuth, EndpointName } from './endpoints.ts';
import { ERRORS, TWO_FACTOR, VALIDATION } from './messages.ts';
import { API_KEY_ERRORS } from './api-keys.ts';
import { RUN_ERRORS } from './runs.ts';
import { SCRIPT_VERSION_ERRORS } from './script-versions.ts';
import { SCHEDULE_ERRORS } from './messages.ts';
import { NOTIFICATION_ERRORS } from './notifications.ts';
import { OPEN_CLOUD_ERRORS } from './open-cloud.ts';
import { MODERATION_ERRORS, type ModerationAction } from './moderation.ts';
import { SIMULATED_PLAYER, SIMULATOR_ERRORS } from './simulated.ts';
import { teamExamples } from './examples-teams.ts';

/**
 * Example data for the API docs page, keyed by endpoint name (the operationId in
 * /api/openapi.json). The page renders each example as cURL, JavaScript and Lua
 * (example-snippets.ts). Tests keep these honest: every request below is sent to a real server and
 * must answer in the documented success shape (server/src/modules/openapi/examples.api.test.ts),
 * every documented answer must parse with the endpoint's response schema, and every endpoint a docs
 * tab shows must have an example here.
 *
 * An endpoint called in more than one way (POST /api/scripts/execute: code in the sandbox, code in
 * the game, the game client's script by name) has its other ways as `variants`, each shown, run
 * and checked like the first.
 *
 * Placeholders: the page puts the reader's own API key in place of API_KEY_PLACEHOLDER (when it
 * knows it); the reader supplies the session token from login and the id of one of their scripts
 * (and, on the Teams tab, the ids of their team, its member, an invitation and a share:
 * examples-teams.ts, which keeps the Teams tab's examples).
 * Request bodies avoid empty objects and nulls: Roblox's JSONEncode turns `{}` into `[]` and drops nils.
 */

export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';
export const SESSION_TOKEN_PLACEHOLDER = 'YOUR_SESSION_TOKEN';
export const SCRIPT_ID_PLACEHOLDER = 'SCRIPT_ID';
export const TEMP_SCRIPT_ID_PLACEHOLDER = 'TEMP_SCRIPT_ID';
export const SCRIPT_TOKEN_PLACEHOLDER = 'SCRIPT_TOKEN';
export const EXECUTION_ID_PLACEHOLDER = 'EXECUTION_ID';
export const CLOUD_EXECUTION_ID_PLACEHOLDER = 'CLOUD_EXECUTION_ID';
export const API_KEY_ID_PLACEHOLDER = 'API_KEY_ID';
export const SCHEDULE_ID_PLACEHOLDER = 'SCHEDULE_ID';
export const DESTINATION_ID_PLACEHOLDER = 'DESTINATION_ID';
export const NOTIFICATION_EVENT_ID_PLACEHOLDER = 'NOTIFICATION_EVENT_ID';
export {
  INVITATION_ID_PLACEHOLDER,
  INVITATION_TOKEN_PLACEHOLDER,
  MEMBER_ID_PLACEHOLDER,
  SHARE_ID_PLACEHOLDER,
  SHARE_TOKEN_PLACEHOLDER,
  TEAM_ID_PLACEHOLDER,
  USER_ID_PLACEHOLDER,
} from './examples-teams.ts';

/** Puts values in place of placeholders (the longer names first: TEMP_SCRIPT_ID holds SCRIPT_ID). */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return Object.keys(values)
    .sort((a, b) => b.length - a.length)
    .reduce((filled, name) => filled.replaceAll(name, values[name]!), text);
}

export interface EndpointExample {
  /** Values of the path's `:name` parameters. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** A documented success answer (200); a string for text/plain answers. */
  response: unknown;
  /** A documented error answer. */
  error: { status: number; body: ErrorResponse };
  /** Something the reader should know before running it. */
  note?: string;
  /** What this way of calling it is, when the endpoint has `variants`. */
  title?: string;
  /** How this example's caller proves itself, when not as its endpoint's `auth` says ('game-key': `key` in the body, no header). */
  auth?: EndpointAuth;
  /** The Lua example's lines after it decodes the answer as `data`, instead of printing its first field. */
  luaAnswer?: string[];
  /** Other ways of calling the same endpoint. */
  variants?: EndpointExample[];
}

/** Every way an endpoint's example shows it being called: the example itself, then its variants. */
export function examplesOf(example: EndpointExample): EndpointExample[] {
  return [example, ...(example.variants ?? [])];
}

/** The Open Cloud key of the examples; the docs' test answers for Roblox and knows it. */
export const EXAMPLE_OPEN_CLOUD_KEY = 'rbxoc_f3Jq9XvL2mT8pWc6Yb1nHs4dKz7aRe0uGi5oQx';
export const EXAMPLE_UNIVERSE_ID = '5795192361';
/** The place the examples' cloud runs use (a place of EXAMPLE_UNIVERSE_ID). */
export const EXAMPLE_PLACE_ID = '17452882551';
const USER_ID = '827e8511-e451-4feb-8970-a59c3c1d366e';
const SCRIPT_ID = 'f2152e68-1fc6-480b-bd75-87405208bfe9';
const EXAMPLE_API_KEY = 'mr_cNhVSVDoTsbl8HadMirhCD0YrPTc';
const EXAMPLE_TOKEN = 'mrs_V0RGJ8LjGYltjkbVxE3oqfKpd8Ila2tsjKeUiKbLRdc';
const CREATED_AT = '2026-11-22T00:26:49.409Z';
const TEMP_SCRIPT_ID = 'b7ed211e-fb16-426d-bd45-94e0c8be6481';
const tempScriptUrl = `https://moonrelay.example.com/api/scripts/load/${TEMP_SCRIPT_ID}?key=eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJi...`;

const user = {
  id: USER_ID,
  name: 'Builder',
  username: 'builder',
  email: 'builder@example.com',
  googleId: null,
  apiKey: EXAMPLE_API_KEY,
  createdAt: CREATED_AT,
  isAdmin: false,
};

const script = {
  id: SCRIPT_ID,
  name: 'Hello',
  description: 'Says hello',
  code: 'print("Hello from Moonrelay")',
  isAutoExecute: false,
  isPublic: false,
  executionCount: 0,
  userId: USER_ID,
  gameId: null,
  gameName: null,
  gameImageUrl: null,
  autoExecuteGames: null,
  createdAt: '2026-11-22T00:26:49.580Z',
  updatedAt: '2026-11-22T00:26:49.580Z',
  version: 1,
  lastChangedByKey: null,
};

/** The example script's first version, as the History lists it. */
const firstVersion = {
  number: 1,
  name: 'Hello',
  savedBy: 'Builder',
  savedVia: 'session',
  savedByKey: null,
  restoredFrom: null,
  codeBytes: 29,
  lines: 1,
  current: true,
  createdAt: '2026-11-22T00:26:49.580Z',
};
const versionNotFound = { status: 404, body: { error: SCRIPT_VERSION_ERRORS.notFound } };

const sandboxRun = {
  success: true,
  output: 'Hello from Moonrelay\n',
  error: null,
  target: 'sandbox',
  executionId: '0c64cd59-17b0-4a20-b231-900155f2a22f',
  durationMs: 7,
  limit: null,
};

/** A game run whose result was not back within the wait: the spec's queued shape, with pending. */
const queuedGameRun = {
  success: true,
  output: '',
  error: null,
  target: 'game',
  executionId: '5b0a8d0e-3f6e-4a8e-9a51-0e2f1d1c7c11',
  serverId: 'studio',
  durationMs: 0,
  queued: true,
  gameConnected: true,
  pending: true,
};

const dryRun = {
  ...sandboxRun,
  target: 'dry-run',
  executionId: '85db067f-fb6c-44b4-83db-8892016c7a62',
  durationMs: 12,
  dryRun: {
    created: [],
    destroyed: [],
    changed: [],
    changedOmitted: 0,
    propertiesSet: 0,
    gameSeconds: 0,
    waitingThreads: 0,
    endedBy: 'idle',
  },
};

const playerData = {
  playerName: 'builderman',
  userId: 156,
  position: { x: 0, y: 5, z: 0 },
  health: 100,
  maxHealth: 100,
  walkSpeed: 16,
};

// The answer to `print("Hello"`, in Luau's words.
const syntaxError = {
  error: `${ERRORS.luaSyntaxPrefix}1:14: Expected ')' (to close '(' at column 6), got <eof>`,
  issues: [{ path: '1:14', message: "Expected ')' (to close '(' at column 6), got <eof>" }],
};

// A line of the game console: an error thrown in a game script, with its stack.
const consoleError = {
  id: '1043',
  serverId: 'studio',
  time: '2026-11-22T00:26:51.120Z',
  level: 'error',
  text: 'ServerScriptService.Saves:12: DataStore request was throttled',
  stack: 'ServerScriptService.Saves:12 function save\nServerScriptService.Saves:30',
  script: 'ServerScriptService.Saves',
  own: false,
  executionId: null,
};

const unauthorized = (message: string = ERRORS.authenticationFailed) => ({
  status: 401,
  body: { error: message },
});

const scriptNotFound = { status: 404, body: { error: ERRORS.scriptNotFound } };

/** A simulated game server running (POST or GET /api/game/simulator). */
const simulatorRunning = {
  running: true,
  serverId: 'simulated-3f9a1c2b',
  playerName: SIMULATED_PLAYER.name,
  startedAt: '2026-11-29T10:00:00.000Z',
  endsAt: '2026-11-29T10:05:00.000Z',
  lastStop: null,
};

/** A bucket of requestsOverTime; `hour` is the date and hour, e.g. 2026-11-21T23. */
const hourly = (hour: string, requests: number, errors: number) => ({
  start: `${hour}:00:00.000Z`,
  requests,
  errors,
});

const SCHEDULE_ID = '0d6a3f1e-52b4-4c8e-9a57-2c1f0b7d9e43';
const nightlyTimes = [
  '2026-11-23T07:30:00.000Z',
  '2026-11-24T07:30:00.000Z',
  '2026-11-25T07:30:00.000Z',
  '2026-11-26T07:30:00.000Z',
  '2026-11-27T07:30:00.000Z',
];
const nightlySchedule = {
  id: SCHEDULE_ID,
  scriptId: SCRIPT_ID,
  kind: 'cron',
  cron: '30 2 * * *',
  timeZone: 'America/New_York',
  intervalSeconds: null,
  target: 'all-servers',
  serverId: null,
  enabled: true,
  nextRuns: nightlyTimes,
  lastRun: null,
  lastError: null,
  skippedCount: 0,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};
const scheduleNotFound = { status: 404, body: { error: SCHEDULE_ERRORS.notFound } };

const DESTINATION_ID = '7b4e2d9a-1c3f-4e5a-8b6d-0f9e8d7c6b5a';
const NOTIFICATION_EVENT_ID = 'c2a1f0e9-8d7c-4b6a-9e5f-4d3c2b1a0f9e';
const openCloudKey = {
  universeId: EXAMPLE_UNIVERSE_ID,
  maskedKey: 'rbxo…5oQx',
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
  lastImportAt: CREATED_AT,
  lastImportError: null,
  placeId: EXAMPLE_PLACE_ID,
  placeVersion: null,
  scopes: [
    'universe.user-restriction:read',
    'universe.user-restriction:write',
    'universe.place.luau-execution-session:write',
  ],
};

/** A notification destination as Settings lists it: the Discord token never shown again. */
const discordDestination = {
  id: DESTINATION_ID,
  kind: 'discord',
  name: 'Ops channel',
  maskedUrl: 'https://discord.com/api/webhooks/1180000000000000001/…',
  events: ['server.disconnected', 'run.failed', 'schedule.failed'],
  pausedReason: null,
  pausedAt: null,
  failuresInRow: 0,
  lastDeliveryAt: null,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};
const destinationNotFound = { status: 404, body: { error: NOTIFICATION_ERRORS.notFound } };

/** A scoped key as Settings lists it. */
const scopedKey = {
  id: '3d0c7c4e-8f0e-4a43-9d0b-5b1f7a2c9e11',
  name: 'CI deploy',
  scopes: ['scripts:read', 'scripts:write'],
  maskedKey: 'mr_Q7pZk…4fXw',
  integration: false,
  allowedIps: ['203.0.113.0/24'],
  createdAt: CREATED_AT,
  expiresAt: '2027-11-22T00:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
};

const EXAMPLE_LOGIN_CHALLENGE = 'eyJhbGciOiJIUzI1NiJ9.eyJ0aHIiOiJuYW1lOmJ1aWxkZXIiLCJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';
const examplePasskey = {
  id: '0b8e2d4c-5f1a-4c3e-9d27-6a1f0e9b7c42',
  name: 'Work laptop',
  createdAt: '2026-11-20T09:12:44.120Z',
  lastUsedAt: '2026-11-22T08:01:02.345Z',
};
const passkeyCreationOptions = {
  challenge: 'q2v7Jx0cZr9mYkHf3pLw8Q',
  rp: { name: 'Moonrelay', id: 'moonrelay.example' },
  user: { id: 'dTEyMzQ', name: 'builder', displayName: 'Builder' },
  pubKeyCredParams: [
    { alg: -8, type: 'public-key' },
    { alg: -7, type: 'public-key' },
    { alg: -257, type: 'public-key' },
  ],
  timeout: 300000,
  attestation: 'none',
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred', requireResidentKey: false },
  extensions: { credProps: true },
};
const passkeyRequestOptions = {
  rpId: 'moonrelay.example',
  challenge: 'Zk3rT8pQvN1xW6yB0cMa4g',
  allowCredentials: [{ id: 'hQx2bV9sLk0rTq7mWz3yPA', type: 'public-key', transports: ['internal'] }],
  timeout: 300000,
  userVerification: 'preferred',
};
const passkeyRegistrationCredential = {
  id: 'hQx2bV9sLk0rTq7mWz3yPA',
  rawId: 'hQx2bV9sLk0rTq7mWz3yPA',
  type: 'public-key',
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
    attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ',
    transports: ['internal'],
  },
};
const passkeyAuthenticationCredential = {
  id: 'hQx2bV9sLk0rTq7mWz3yPA',
  rawId: 'hQx2bV9sLk0rTq7mWz3yPA',
  type: 'public-key',
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
    signature: 'MEUCIQDx4bLr2sT5kQ',
  },
};

/** A moderation action as the examples show it: the examples' player, taken by their owner. */
const moderationAction = (
  fields: Partial<ModerationAction> & Pick<ModerationAction, 'kind' | 'message'>,
): ModerationAction => ({
  id: '5b1d8c2e-7f4a-4c1e-9d3b-2a6f0e8c4d71',
  userId: 156,
  actorId: '8d1f4a52-3c6b-4e0d-9a7f-1b2c3d4e5f60',
  actorName: 'builder_dev',
  privateReason: null,
  durationSeconds: null,
  excludeAltAccounts: false,
  path: 'game',
  state: 'pending',
  error: null,
  serverId: null,
  replaces: null,
  endedBy: null,
  createdAt: '2026-11-27T14:05:00.000Z',
  completedAt: null,
  ...fields,
});
const exampleBan = {
  durationSeconds: 86400,
  displayReason: 'Exploiting: flying out of the map',
  privateReason: 'Seen by two moderators in server b0f3c0de',
  excludeAltAccounts: false,
};

export const EXAMPLES: Partial<Record<EndpointName, EndpointExample>> = {
  listApiKeys: {
    response: { items: [scopedKey], limit: 25 },
    error: unauthorized(),
  },
  createApiKey: {
    body: { name: 'CI deploy', scopes: ['scripts:read', 'scripts:write'], allowedIps: ['203.0.113.0/24'] },
    response: { ...scopedKey, key: 'mr_Q7pZkR2bT9wLmN3xV8yC1d4fXw' },
    error: {
      status: 400,
      body: {
        error: API_KEY_ERRORS.allowedIpInvalid,
        issues: [{ path: 'allowedIps.0', message: API_KEY_ERRORS.allowedIpInvalid }],
      },
    },
    note: 'The answer is the only time the key is shown: keep it somewhere safe.',
  },
  revokeApiKey: {
    params: { keyId: API_KEY_ID_PLACEHOLDER },
    response: { success: true, message: 'API key revoked' },
    error: { status: 404, body: { error: API_KEY_ERRORS.notFound } },
    note: 'Anything that uses the key stops working at once.',
  },
  listNotificationDestinations: {
    response: { destinations: [discordDestination], limit: 20 },
    error: unauthorized(),
  },
  createNotificationDestination: {
    body: {
      kind: 'discord',
      name: 'Ops channel',
      url: 'https://discord.com/api/webhooks/1180000000000000001/Xq3vT9bK2mR7wLpZ8nYc4dF1gH6jS0aE5uI-oQ_tN2xB3vC7kM9lP4rW1sD8fG6h',
      events: ['server.disconnected', 'run.failed', 'schedule.failed'],
    },
    response: { ...discordDestination, secret: null },
    error: { status: 400, body: { error: NOTIFICATION_ERRORS.discordUrlInvalid } },
    note: 'A generic webhook: { "kind": "webhook", "url": "https://hooks.example.com/moonrelay", ... }; its signing secret is answered this once (Moonrelay-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">).',
  },
  updateNotificationDestination: {
    params: { id: DESTINATION_ID_PLACEHOLDER },
    body: { events: ['server.connected', 'server.disconnected'] },
    response: { ...discordDestination, events: ['server.connected', 'server.disconnected'] },
    error: destinationNotFound,
    note: 'DESTINATION_ID is the id a create call answered; { "paused": false } resumes a paused destination.',
  },
  deleteNotificationDestination: {
    params: { id: DESTINATION_ID_PLACEHOLDER },
    response: { success: true },
    error: destinationNotFound,
  },
  testNotificationDestination: {
    params: { id: DESTINATION_ID_PLACEHOLDER },
    response: { eventId: NOTIFICATION_EVENT_ID },
    error: destinationNotFound,
  },
  listNotificationAttempts: {
    params: { id: DESTINATION_ID_PLACEHOLDER },
    response: {
      attempts: [
        {
          id: 'e5d4c3b2-a190-4f8e-8d7c-6b5a4f3e2d1c',
          eventId: NOTIFICATION_EVENT_ID,
          event: 'test',
          at: CREATED_AT,
          status: 204,
          error: null,
          latencyMs: 182,
          answer: '',
        },
      ],
    },
    error: destinationNotFound,
  },
  redeliverNotification: {
    params: { id: DESTINATION_ID_PLACEHOLDER, eventId: NOTIFICATION_EVENT_ID_PLACEHOLDER },
    response: { eventId: NOTIFICATION_EVENT_ID },
    error: { status: 404, body: { error: NOTIFICATION_ERRORS.eventNotFound } },
    note: 'NOTIFICATION_EVENT_ID is an eventId from the delivery log; the event goes out again under that id.',
  },
  getOpenCloudKey: {
    response: { key: openCloudKey },
    error: unauthorized(),
  },
  saveOpenCloudKey: {
    body: { universeId: EXAMPLE_UNIVERSE_ID, apiKey: EXAMPLE_OPEN_CLOUD_KEY },
    response: openCloudKey,
    error: { status: 400, body: { error: `${OPEN_CLOUD_ERRORS.keyRefused} Roblox said: Invalid API Key` } },
    note: 'Create the key in Creator Hub → Open Cloud → API Keys with the user-restriction API (universe.user-restriction:read and :write) for this universe. Roblox is asked once before the key is stored.',
  },
  getCloudPlace: {
    response: {
      universeId: EXAMPLE_UNIVERSE_ID,
      placeId: EXAMPLE_PLACE_ID,
      placeVersion: null,
      ready: true,
      reason: null,
    },
    error: unauthorized(),
    note: 'ready is false with the reason when the account has no Open Cloud key, the key lacks universe.place.luau-execution-session:write, or no place is set.',
  },
  saveCloudPlace: {
    body: { placeId: EXAMPLE_PLACE_ID, placeVersion: null },
    response: openCloudKey,
    error: { status: 404, body: { error: CLOUD_RUN_ERRORS.noKey } },
    note: 'The place id is on Creator Hub → the experience → Places. Pin a version (its number) to run that version instead of the newest.',
  },
  deleteOpenCloudKey: {
    response: { success: true },
    error: { status: 404, body: { error: OPEN_CLOUD_ERRORS.noKey } },
  },
  listRobloxBans: {
    query: { limit: '50' },
    response: {
      universeId: EXAMPLE_UNIVERSE_ID,
      active: [
        {
          userId: 156,
          durationSeconds: 86400,
          startTime: '2026-11-27T14:05:00.000Z',
          displayReason: 'Exploiting',
          privateReason: 'Speed hack, seen by two moderators',
          excludeAltAccounts: false,
          updateTime: '2026-11-27T14:05:00.000Z',
        },
      ],
      logs: [
        {
          userId: 156,
          durationSeconds: 86400,
          startTime: '2026-11-27T14:05:00.000Z',
          displayReason: 'Exploiting',
          privateReason: 'Speed hack, seen by two moderators',
          excludeAltAccounts: false,
          active: true,
          moderator: 'users/45348281',
          createTime: '2026-11-27T14:05:00.000Z',
          placeId: null,
        },
      ],
      lastImportAt: '2026-11-27T14:10:00.000Z',
      lastImportError: null,
    },
    error: { status: 403, body: { error: "Only admins can see another user's players" } },
    note: 'Without a saved Open Cloud key the lists are empty and universeId is null.',
  },
  importBans: {
    response: { imported: 1, active: 1 },
    error: { status: 404, body: { error: OPEN_CLOUD_ERRORS.noKey } },
    note: 'Moonrelay imports by itself every five minutes; this asks for it now.',
  },
  listSchedules: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    response: { schedules: [nightlySchedule] },
    error: scriptNotFound,
  },
  createSchedule: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    body: { kind: 'cron', cron: '30 2 * * *', timeZone: 'America/New_York', target: 'all-servers' },
    response: nightlySchedule,
    error: { status: 400, body: { error: SCHEDULE_ERRORS.timeZoneUnknown } },
    note: 'Or every so often: { "kind": "interval", "intervalSeconds": 3600, "target": "sandbox" }.',
  },
  updateSchedule: {
    params: { id: SCHEDULE_ID_PLACEHOLDER },
    body: { enabled: false },
    response: { ...nightlySchedule, enabled: false, nextRuns: [] },
    error: scheduleNotFound,
    note: 'SCHEDULE_ID is the id a create call answered; enabled true resumes the schedule.',
  },
  deleteSchedule: {
    params: { id: SCHEDULE_ID_PLACEHOLDER },
    response: { success: true },
    error: scheduleNotFound,
  },
  previewSchedule: {
    body: { kind: 'cron', cron: '30 2 * * *', timeZone: 'America/New_York' },
    response: { nextRuns: nightlyTimes },
    error: { status: 400, body: { error: SCHEDULE_ERRORS.cronInvalid } },
  },
  register: {
    body: { email: 'builder@example.com', username: 'builder', name: 'Builder', password: 'correct horse battery' },
    response: { token: EXAMPLE_TOKEN, user },
    error: { status: 409, body: { error: ERRORS.emailTaken } },
  },
  login: {
    body: { emailOrUsername: 'builder@example.com', password: 'correct horse battery' },
    response: { token: EXAMPLE_TOKEN, user },
    error: unauthorized(ERRORS.invalidCredentials),
  },
  logout: {
    response: { success: true, message: 'Logged out' },
    error: unauthorized(),
  },
  currentUser: {
    response: user,
    error: unauthorized(),
  },
  authProviders: {
    response: { google: { enabled: true, name: 'Google' }, firstAccount: false },
    error: { status: 429, body: { error: ERRORS.tooManyRequests } },
  },
  signInMethods: {
    response: { password: true, google: { enabled: true, name: 'Google', googleId: null } },
    error: { status: 401, body: { error: ERRORS.authenticationFailed } },
  },
  regenerateKey: {
    response: {
      apiKey: 'mr_iHpTLqiamPA0fo863ifEmH0iH1EJ',
      user: { ...user, apiKey: 'mr_iHpTLqiamPA0fo863ifEmH0iH1EJ' },
    },
    error: unauthorized(),
    note: 'Your game and other integrations must be given the new key: the old one stops working at once.',
  },
  deleteAccount: {
    response: { success: true, message: 'Account deleted' },
    error: unauthorized(),
    note: 'This cannot be undone. Needs a proof from the last 10 minutes (POST /api/auth/sudo).',
  },
  listSessions: {
    response: {
      sessions: [
        {
          id: 'c1f7a0f2-5d0e-4a43-9d0c-3f7b3f1e2a10',
          createdAt: CREATED_AT,
          lastUsedAt: CREATED_AT,
          signInAddress: '203.0.113.7',
          lastAddress: '203.0.113.7',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
          browser: 'Firefox on Linux',
          signedInWith: 'password',
          secondFactor: 'code',
          current: true,
        },
      ],
    },
    error: unauthorized(),
  },
  sudoStatus: {
    response: { until: '2026-11-22T00:36:49.409Z', methods: ['password', 'code'] },
    error: unauthorized(),
  },
  sudo: {
    body: { password: 'correct horse battery' },
    response: { until: '2026-11-22T00:36:49.409Z', methods: ['password', 'code'] },
    error: { status: 403, body: { error: TWO_FACTOR.wrongPassword } },
    note: 'Or { "code": "123456" } from the authenticator app, or a recovery code. Protected changes (deleting the account, a new API key, linking an identity...) answer 403 with "code": "sudo_required" without a proof from the last 10 minutes.',
  },
  listScripts: {
    response: [script],
    error: unauthorized(ERRORS.invalidApiKey),
  },
  listScriptPage: {
    query: { q: 'hello', type: 'manual', limit: '20' },
    response: {
      scripts: [
        {
          id: script.id,
          name: script.name,
          description: script.description,
          isAutoExecute: script.isAutoExecute,
          isPublic: script.isPublic,
          executionCount: script.executionCount,
          createdAt: script.createdAt,
          updatedAt: script.updatedAt,
        },
      ],
      nextCursor: null,
      total: 1,
      matching: 1,
    },
    error: {
      status: 400,
      body: {
        error: 'limit: Too big: expected number to be <=100',
        issues: [{ path: 'limit', message: 'limit: Too big: expected number to be <=100' }],
      },
    },
    note: 'When nextCursor is not null, pass it as cursor (with the same q and type) for the next page. Each script comes without its code: GET /api/scripts/{id} has it.',
  },
  createScript: {
    body: { name: 'Hello', description: 'Says hello', code: 'print("Hello from Moonrelay")', isAutoExecute: false },
    response: script,
    error: {
      status: 400,
      body: {
        error: VALIDATION.scriptNameRequired,
        issues: [{ path: 'name', message: VALIDATION.scriptNameRequired }],
      },
    },
  },
  getScript: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    response: script,
    error: scriptNotFound,
  },
  updateScript: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    body: { code: 'print("Hello again")' },
    response: { ...script, code: 'print("Hello again")', updatedAt: '2026-11-22T00:26:49.593Z', version: 2 },
    error: scriptNotFound,
  },
  listScriptVersions: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    response: { scriptId: SCRIPT_ID, current: 1, items: [firstVersion] },
    error: scriptNotFound,
    note: 'Each save that changes the script adds a version; the last 100 are kept.',
  },
  getScriptVersion: {
    params: { id: SCRIPT_ID_PLACEHOLDER, n: '1' },
    response: {
      ...firstVersion,
      scriptId: SCRIPT_ID,
      description: 'Says hello',
      code: 'print("Hello from Moonrelay")',
      isAutoExecute: false,
      isPublic: false,
      gameId: null,
      gameName: null,
      gameImageUrl: null,
      autoExecuteGames: null,
    },
    error: versionNotFound,
  },
  restoreScriptVersion: {
    params: { id: SCRIPT_ID_PLACEHOLDER, n: '1' },
    response: { ...script, version: 2, updatedAt: '2026-11-22T00:31:02.004Z' },
    error: versionNotFound,
    note: 'The restore is a version of its own (here 2), so it can be undone by restoring the version before it.',
  },
  deleteScript: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    response: { success: true },
    error: scriptNotFound,
  },
  executeCode: {
    title: 'Code in the sandbox',
    body: { code: 'print("Hello from Moonrelay")', target: 'sandbox' },
    response: sandboxRun,
    error: { status: 400, body: syntaxError },
    note: 'Leave out target (or send "game") to run it in your connected game instead (see "Code in your game").',
    variants: [
      {
        title: 'Code in your game',
        body: { code: 'print("Hello from Moonrelay")' },
        response: queuedGameRun,
        error: { status: 400, body: syntaxError },
        note: 'Needs a connected game. The answer waits up to 8 s for the game’s result (success, output, error); a result not back by then is answered queued, as here, with pending true: the game has the script, and the result arrives later in your execution history (and live on the dashboard).',
      },
      {
        title: 'Game client: a script by name',
        auth: 'game-key',
        body: { key: API_KEY_PLACEHOLDER, script: 'Hello', gameData: playerData },
        response: {
          success: true,
          code: 'print("Hello from Moonrelay")',
          name: 'Hello',
          output: '',
          commands: [{ id: 'a9276542-66e4-4abc-8981-57233614a36f', type: 'teleport', data: { x: 0, y: 50, z: 0 } }],
        },
        error: scriptNotFound,
        luaAnswer: [
          'local run, problem = loadstring(data.code)',
          'if not run then',
          '  error(problem)',
          'end',
          'run()',
        ],
        note: 'How a game fetches one of your scripts by its name and runs it itself (LoadStringEnabled must be on): your API key goes in the body, with no Authorization header. With gameData the call also counts as the game’s ping, and commands holds the commands waiting for it (run them in order; their results go on the next ping).',
      },
    ],
  },
  executeScript: {
    params: { id: SCRIPT_ID_PLACEHOLDER },
    body: { target: 'dry-run' },
    response: dryRun,
    error: scriptNotFound,
    note: 'A dry run runs it against an emulated game server (game, Instance, task.wait on a virtual clock) in the sandbox and answers what it changed; "sandbox" runs plain Lua, and "game" (the default) your connected game.',
  },
  checkLua: {
    body: { code: 'local greeting: string = "Hello"\nprint(`{greeting} from Moonrelay`)' },
    response: { ok: true, diagnostics: [] },
    error: unauthorized(ERRORS.invalidApiKey),
  },
  formatLua: {
    body: { code: 'local   x=1\nprint( x )' },
    response: { code: 'local x = 1\nprint(x)\n' },
    error: { status: 400, body: syntaxError },
  },
  createTempScript: {
    body: { script: 'print("A long script")' },
    response: {
      id: TEMP_SCRIPT_ID,
      loadstring: `loadstring(game:GetService("HttpService"):GetAsync("${tempScriptUrl}"))()`,
      url: tempScriptUrl,
      expiresAt: '2026-12-22T00:26:50.000Z',
    },
    error: {
      status: 400,
      body: {
        error: VALIDATION.scriptCodeRequired,
        issues: [{ path: 'script', message: VALIDATION.scriptCodeRequired }],
      },
    },
    note: 'For code over 10000 characters, which is too long to send as a command: run the answered loadstring in your game.',
  },
  deleteTempScript: {
    params: { id: TEMP_SCRIPT_ID_PLACEHOLDER },
    response: { success: true },
    error: { status: 404, body: { error: 'This long script was deleted or never kept' } },
    note: 'Every loader url issued for the kept code stops working at once.',
  },
  loadTempScript: {
    params: { id: TEMP_SCRIPT_ID_PLACEHOLDER },
    query: { key: SCRIPT_TOKEN_PLACEHOLDER },
    response: 'print("A long script")',
    error: { status: 401, body: { error: 'Invalid or revoked script token' } },
    note: 'The url answered by POST /api/scripts/temp is this call, with the script token as key; the loader calls it.',
  },
  gamePing: {
    body: { key: API_KEY_PLACEHOLDER, serverId: 'studio', playerData },
    response: { success: true, command: null, commands: [] },
    error: unauthorized(ERRORS.invalidApiKey),
    note: 'The integration script sends this every 2 seconds; you rarely need to send it yourself.',
  },
  gameStatus: {
    response: {
      connected: true,
      lastPing: '2026-11-22T00:26:50.395Z',
      gameData: playerData,
      servers: [
        {
          serverId: 'studio',
          connected: true,
          lastPing: '2026-11-22T00:26:50.395Z',
          connectedAt: '2026-11-22T00:26:50.395Z',
          gameData: playerData,
        },
      ],
      refusedPings: [],
      serverBudget: null,
    },
    error: unauthorized(ERRORS.invalidApiKey),
  },
  gameCommand: {
    body: { type: 'teleport', data: { x: 0, y: 50, z: 0 } },
    response: {
      queued: true,
      message: 'Command queued',
      id: 'a9276542-66e4-4abc-8981-57233614a36f',
      ids: ['a9276542-66e4-4abc-8981-57233614a36f'],
      servers: 12,
    },
    error: { status: 409, body: { error: 'Game server not connected' } },
    note: 'Without serverId the command is one broadcast to every live game server (`servers` says how many; each takes its own copy on its next ping), or waits (queued) for the first one that pings when none is live. The 409 answers a serverId that is not connected; 429, more than 1,000 commands waiting.',
  },
  gameConsole: {
    query: { serverId: 'studio', level: 'warning,error', q: 'DataStore', limit: '50' },
    response: { lines: [consoleError], nextCursor: '1042' },
    error: {
      status: 400,
      body: {
        error: 'level must be a comma-separated list of output, info, warning, error',
        issues: [{ path: 'level', message: 'level must be a comma-separated list of output, info, warning, error' }],
      },
    },
    note: 'Newest first. For the next (older) page, send the same filters with `cursor` set to `nextCursor`.',
  },
  gameConsoleErrors: {
    response: { servers: [{ serverId: 'studio', errorsLastHour: 3 }] },
    error: unauthorized(ERRORS.invalidApiKey),
  },
  simulatorStatus: {
    response: simulatorRunning,
    error: unauthorized(),
  },
  startSimulator: {
    response: simulatorRunning,
    error: { status: 429, body: { error: SIMULATOR_ERRORS.full } },
    note: 'Answers once the simulated server’s first ping is accepted; it shows in GET /api/game/status (and the Players, Console and Runs screens) as `simulated-…`. Pressed again while it runs, it answers the running one.',
  },
  stopSimulator: {
    response: {
      ...simulatorRunning,
      running: false,
      startedAt: null,
      endsAt: null,
      lastStop: { reason: 'stopped', at: '2026-11-29T10:02:41.220Z', error: null },
    },
    error: unauthorized(),
  },
  gameLoader: {
    query: { key: API_KEY_PLACEHOLDER },
    response: '-- Moonrelay Game Integration Script\n--\n-- Put this in a Script in ServerScriptService. ...',
    error: unauthorized(ERRORS.invalidApiKey),
  },
  gameProfile: {
    query: { userId: '156' },
    response: {
      id: 156,
      name: 'builderman',
      displayName: 'Builder',
      description: 'Hi',
      avatarUrl: 'https://tr.rbxcdn.com/156.png',
      hasVerifiedBadge: true,
      created: '2006-02-27T21:06:40.3Z',
    },
    error: {
      status: 400,
      body: {
        error: 'userId must be a Roblox user id (digits)',
        issues: [{ path: 'userId', message: 'userId must be a Roblox user id (digits)' }],
      },
    },
  },
  onlinePlayers: {
    query: { q: 'builder', limit: '50' },
    response: {
      players: [
        {
          userId: 156,
          name: 'builderman',
          displayName: 'Builder',
          accountAgeDays: 7215,
          serverId: 'b0f3c0de-5d1e-4f4e-9a49-1c2d3e4f5a6b',
          joinedAt: '2026-11-27T14:03:11.000Z',
        },
      ],
      total: 1,
      totalCapped: false,
      nextCursor: null,
    },
    error: {
      status: 400,
      body: {
        error: 'limit: Too big: expected number to be <=200',
        issues: [{ path: 'limit', message: 'limit: Too big: expected number to be <=200' }],
      },
    },
    note: 'Newest arrival first. `total` counts everyone online with these filters; for the next page send `cursor` set to `nextCursor`. A broad search over every server (one that starts 20,000 or more names, such as a single letter) stops counting at 1,000 and says so with `totalCapped: true`: at least that many match.',
  },
  listPlayers: {
    query: { q: 'builder' },
    response: {
      players: [
        {
          userId: 156,
          name: 'builderman',
          displayName: 'Builder',
          accountAgeDays: 7215,
          firstSeen: '2026-10-02T18:20:00.000Z',
          lastSeen: '2026-11-27T14:03:11.000Z',
          playSeconds: 86400,
          sessions: 42,
          online: true,
        },
      ],
      nextCursor: null,
    },
    error: unauthorized(ERRORS.invalidApiKey),
  },
  getPlayer: {
    params: { userId: '156' },
    response: {
      userId: 156,
      name: 'builderman',
      displayName: 'Builder',
      accountAgeDays: 7215,
      firstSeen: '2026-10-02T18:20:00.000Z',
      lastSeen: '2026-11-27T14:03:11.000Z',
      playSeconds: 86400,
      sessions: 42,
      online: true,
      namesSeen: [{ name: 'builderman', displayName: 'Builder', firstSeen: '2026-10-02T18:20:00.000Z' }],
      recentSessions: [
        { serverId: 'b0f3c0de-5d1e-4f4e-9a49-1c2d3e4f5a6b', joinedAt: '2026-11-27T14:03:11.000Z', leftAt: null },
      ],
    },
    error: { status: 404, body: { error: 'Player not found' } },
  },
  listBans: {
    query: { limit: '50' },
    response: {
      bans: [
        {
          ...moderationAction({ kind: 'ban', message: exampleBan.displayReason, userId: 157, durationSeconds: null }),
          state: 'applied',
          completedAt: '2026-11-27T14:05:02.000Z',
          name: 'builderwoman',
        },
      ],
      nextCursor: null,
      total: 1,
      elsewhere: [
        {
          userId: 158,
          name: 'speedrunner',
          durationSeconds: null,
          startTime: '2026-11-20T09:00:00.000Z',
          displayReason: 'Cheating',
          privateReason: 'Banned in Creator Hub',
          excludeAltAccounts: false,
          updateTime: '2026-11-20T09:00:00.000Z',
        },
      ],
    },
    error: {
      status: 400,
      body: {
        error: 'limit: Too big: expected number to be <=100',
        issues: [{ path: 'limit', message: 'limit: Too big: expected number to be <=100' }],
      },
    },
    note: "`bans` comes a page at a time, newest first: when nextCursor is not null, pass it as cursor for the next page; total counts every ban in force. `elsewhere` (with the first page only) lists the bans in force in Roblox that Moonrelay did not make (Creator Hub, other tools), from the last Open Cloud import. Each ban says its path (`game`: a live server ran Players:BanAsync; `open_cloud`) and its state: `pending` until that path reports, then `applied` or `failed` with Roblox's own error.",
  },
  banPlayers: {
    body: { userIds: [156], ...exampleBan },
    response: {
      actions: [
        moderationAction({
          kind: 'ban',
          message: exampleBan.displayReason,
          privateReason: exampleBan.privateReason,
          durationSeconds: 86400,
        }),
      ],
    },
    error: {
      status: 400,
      body: {
        error: MODERATION_ERRORS.tooManyPlayers,
        issues: [{ path: 'userIds', message: MODERATION_ERRORS.tooManyPlayers }],
      },
    },
    note: 'Bans alike go to the game 50 to a BanAsync call. With no game server live they stay `pending` and are sent when one connects.',
  },
  playerModeration: {
    params: { userId: '157' },
    response: {
      actions: [
        moderationAction({
          kind: 'ban',
          userId: 157,
          message: exampleBan.displayReason,
          state: 'applied',
          completedAt: '2026-11-27T14:05:02.000Z',
        }),
        moderationAction({
          id: '0c9e7d21-4b8a-4f63-a2d5-9e1f3b7c6a48',
          kind: 'note',
          userId: 157,
          message: "Asked in chat for other players' passwords",
          path: null,
          serverId: null,
          state: 'applied',
          completedAt: '2026-11-27T14:01:00.000Z',
          createdAt: '2026-11-27T14:01:00.000Z',
        }),
      ],
      ban: moderationAction({
        kind: 'ban',
        userId: 157,
        message: exampleBan.displayReason,
        state: 'applied',
        completedAt: '2026-11-27T14:05:02.000Z',
      }),
      elsewhere: null,
    },
    error: { status: 404, body: { error: 'Player not found' } },
  },
  addPlayerNote: {
    params: { userId: '156' },
    body: { text: 'Warned twice in chat for spam; next time a kick' },
    response: moderationAction({
      kind: 'note',
      message: 'Warned twice in chat for spam; next time a kick',
      path: null,
      serverId: null,
      state: 'applied',
      completedAt: '2026-11-27T14:05:00.000Z',
    }),
    error: { status: 404, body: { error: 'Player not found' } },
  },
  warnPlayer: {
    params: { userId: '156' },
    body: { message: 'Please stop spamming the chat.' },
    response: moderationAction({
      kind: 'warning',
      message: 'Please stop spamming the chat.',
      serverId: 'b0f3c0de-5d1e-4f4e-9a49-1c2d3e4f5a6b',
    }),
    error: { status: 409, body: { error: MODERATION_ERRORS.notOnline } },
    note: "The player's game server shows them the message for 10 seconds; the warning turns `applied` once it has.",
  },
  kickPlayer: {
    params: { userId: '156' },
    body: { message: 'Kicked for spamming the chat.' },
    response: moderationAction({
      kind: 'kick',
      message: 'Kicked for spamming the chat.',
      serverId: 'b0f3c0de-5d1e-4f4e-9a49-1c2d3e4f5a6b',
    }),
    error: { status: 409, body: { error: MODERATION_ERRORS.notOnline } },
  },
  banPlayer: {
    params: { userId: '156' },
    body: exampleBan,
    response: moderationAction({
      kind: 'ban',
      message: exampleBan.displayReason,
      privateReason: exampleBan.privateReason,
      durationSeconds: 86400,
    }),
    error: {
      status: 400,
      body: {
        error: MODERATION_ERRORS.displayReason,
        issues: [{ path: 'displayReason', message: MODERATION_ERRORS.displayReason }],
      },
    },
    note: "`durationSeconds` -1 bans for ever. The answer is `pending`: the ban is applied by a live game server of your game (or Open Cloud); read its state in the player's moderation history.",
  },
  editBan: {
    params: { userId: '157' },
    body: { ...exampleBan, durationSeconds: 604800 },
    response: moderationAction({
      id: '9a3e5f17-2d6c-4b80-8e1f-7c4d2b9a6e35',
      kind: 'ban',
      userId: 157,
      message: exampleBan.displayReason,
      privateReason: exampleBan.privateReason,
      durationSeconds: 604800,
      replaces: '5b1d8c2e-7f4a-4c1e-9d3b-2a6f0e8c4d71',
    }),
    error: { status: 409, body: { error: MODERATION_ERRORS.notBanned } },
  },
  unbanPlayer: {
    params: { userId: '157' },
    body: { reason: 'Appeal accepted' },
    response: moderationAction({ kind: 'unban', userId: 157, message: 'Appeal accepted' }),
    error: { status: 409, body: { error: MODERATION_ERRORS.notBanned } },
  },
  integrationScripts: {
    response: {
      quickLoader: `loadstring(game:GetService("HttpService"):GetAsync("https://moonrelay.example.com/api/game/loader?key=${EXAMPLE_API_KEY}"))()`,
      gameIntegration: '-- Moonrelay Game Integration Script\n-- ...',
      teleportExample: '-- Moonrelay Dashboard Teleport Script (example)\n-- ...',
      reachability: { reachable: true, address: 'https://moonrelay.example.com', https: true },
    },
    error: { status: 400, body: { error: ERRORS.hostNotServed } },
    note: 'Opened at http://localhost:3000 without PUBLIC_URL, reachability.reachable is false, with problem (why a game on Roblox cannot reach that address) and fix (an admin is told to set PUBLIC_URL, a member to ask the operator).',
  },
  analyticsUsage: {
    query: { period: '24h' },
    response: {
      totalRequests: 42,
      requestsByEndpoint: { 'POST /api/game/ping': 30, 'GET /api/scripts': 8, 'POST /api/scripts/:id/execute': 4 },
      averageResponseTime: 3.4,
      totalErrors: 1,
      periodStart: '2026-11-21T01:00:00.000Z',
      periodEnd: '2026-11-22T00:26:49.409Z',
      period: '24h',
      requestsOverTime: [hourly('2026-11-21T23', 12, 0), hourly('2026-11-22T00', 30, 1)],
    },
    error: {
      status: 400,
      body: {
        error: 'period: Invalid option: expected one of "1h"|"24h"|"7d"|"30d"',
        issues: [{ path: 'period', message: 'period: Invalid option: expected one of "1h"|"24h"|"7d"|"30d"' }],
      },
    },
    note: 'The last few seconds of requests may not be counted yet when several Moonrelay servers share the database.',
  },
  analyticsScripts: {
    query: { period: '7d' },
    response: {
      totalExecutions: 14,
      executionsByScript: [
        { scriptId: SCRIPT_ID, name: 'Hello', executions: 11, succeeded: 8, failed: 1 },
        { scriptId: null, name: 'Custom code', executions: 3, succeeded: 3, failed: 0 },
      ],
      successRate: 78.6,
      averageExecutionTime: 5.2,
      outcomes: { succeeded: 11, failed: 1, pending: 0, notConnected: 2 },
      periodStart: '2026-11-15T06:00:00.000Z',
      periodEnd: '2026-11-22T00:26:49.409Z',
      period: '7d',
      executionsOverTime: [
        { start: '2026-11-21T18:00:00.000Z', executions: 5, succeeded: 5, failed: 0, notConnected: 0 },
        { start: '2026-11-22T00:00:00.000Z', executions: 9, succeeded: 6, failed: 1, notConnected: 2 },
      ],
    },
    error: unauthorized(ERRORS.invalidApiKey),
  },
  listExecutions: {
    query: { target: 'sandbox', limit: '20' },
    response: {
      runs: [
        {
          id: sandboxRun.executionId,
          scriptId: SCRIPT_ID,
          scriptName: 'Hello',
          scriptVersion: 1,
          target: 'sandbox',
          serverId: null,
          status: 'succeeded',
          limitHit: null,
          durationMs: 7,
          startedBy: 'user',
          actorId: USER_ID,
          actorName: 'builder',
          keyName: null,
          createdAt: '2026-11-22T00:26:50.112Z',
        },
      ],
      nextCursor: null,
    },
    error: {
      status: 400,
      body: {
        error: 'status: Invalid option: expected one of "pending"|"succeeded"|"failed"|"limit"|"not_connected"',
        issues: [
          {
            path: 'status',
            message: 'status: Invalid option: expected one of "pending"|"succeeded"|"failed"|"limit"|"not_connected"',
          },
        ],
      },
    },
    note: 'When nextCursor is not null, pass it as cursor (with the same filters) for the next, older page.',
  },
  cancelExecution: {
    params: { id: CLOUD_EXECUTION_ID_PLACEHOLDER },
    response: {
      id: '5d2f8a61-3b7c-4e9d-a0f1-2c3b4d5e6f70',
      scriptId: null,
      scriptName: null,
      scriptVersion: null,
      target: 'cloud',
      serverId: null,
      status: 'failed',
      limitHit: null,
      durationMs: 0,
      startedBy: 'user',
      actorId: USER_ID,
      actorName: 'builder',
      keyName: null,
      cloudState: 'cancelled',
      createdAt: '2026-11-22T00:26:50.112Z',
      code: 'print(game.PlaceId)',
      codeComplete: true,
      output: '',
      error: `CANCELLED: ${CLOUD_RUN_ERRORS.cancelled}`,
      cloud: {
        state: 'cancelled',
        universeId: EXAMPLE_UNIVERSE_ID,
        placeId: EXAMPLE_PLACE_ID,
        placeVersion: null,
        timeoutSeconds: 300,
        taskPath: null,
        waitingReason: null,
        errorCode: 'CANCELLED',
        errorMessage: CLOUD_RUN_ERRORS.cancelled,
        returnValues: null,
        logs: [],
        startedAt: null,
        finishedAt: '2026-11-22T00:26:51.020Z',
      },
    },
    error: { status: 409, body: { error: CLOUD_RUN_ERRORS.notCancellable } },
    note: 'CLOUD_EXECUTION_ID is the executionId a run with target "cloud" answered, while it still waits for Roblox (its cloudState is waiting).',
  },
  getExecution: {
    params: { id: EXECUTION_ID_PLACEHOLDER },
    response: {
      id: sandboxRun.executionId,
      scriptId: SCRIPT_ID,
      scriptName: 'Hello',
      scriptVersion: 1,
      target: 'sandbox',
      serverId: null,
      status: 'succeeded',
      limitHit: null,
      durationMs: 7,
      startedBy: 'user',
      actorId: USER_ID,
      actorName: 'builder',
      keyName: null,
      createdAt: '2026-11-22T00:26:50.112Z',
      code: 'print("Hello from Moonrelay")',
      codeComplete: true,
      output: 'Hello from Moonrelay\n',
      error: null,
    },
    error: { status: 404, body: { error: RUN_ERRORS.notFound } },
    note: 'EXECUTION_ID is the executionId an execute call answered, or the id of a run from GET /api/executions.',
  },
  adminUserConsole: {
    params: { id: USER_ID },
    query: { level: 'error' },
    response: { lines: [consoleError], nextCursor: null },
    error: { status: 404, body: { error: ERRORS.userNotFound } },
  },
  // Passkeys: what a browser's navigator.credentials answers is made by the browser itself, so these
  // endpoints are not on the API docs page (api-docs.ts); the examples show their shapes.
  listPasskeys: {
    response: { passkeys: [examplePasskey] },
    error: unauthorized(),
  },
  passkeyRegistrationOptions: {
    body: { password: 'correct horse battery' },
    response: { options: passkeyCreationOptions },
    error: { status: 403, body: { error: TWO_FACTOR.wrongPassword } },
  },
  registerPasskey: {
    body: { name: 'Work laptop', credential: passkeyRegistrationCredential },
    response: {
      passkey: { ...examplePasskey, lastUsedAt: null },
      status: { totp: false, recoveryCodesLeft: 0, passkeys: 1, requiredForAdmins: false, setupRequired: false },
    },
    error: { status: 400, body: { error: TWO_FACTOR.passkeyChallengeExpired } },
    note: 'credential is what navigator.credentials.create() answered for the options, as PublicKeyCredential.toJSON() gives it.',
  },
  removePasskey: {
    params: { id: examplePasskey.id },
    body: { password: 'correct horse battery' },
    response: { totp: false, recoveryCodesLeft: 0, passkeys: 0, requiredForAdmins: false, setupRequired: false },
    error: { status: 404, body: { error: TWO_FACTOR.passkeyNotFound } },
  },
  loginPasskeyOptions: {
    body: { challenge: EXAMPLE_LOGIN_CHALLENGE },
    response: { options: passkeyRequestOptions },
    error: unauthorized(TWO_FACTOR.challengeInvalid),
  },
  loginPasskey: {
    body: { challenge: EXAMPLE_LOGIN_CHALLENGE, credential: passkeyAuthenticationCredential },
    response: { token: EXAMPLE_TOKEN, user },
    error: unauthorized(TWO_FACTOR.passkeyChallengeExpired),
    note: 'challenge is what POST /api/auth/login answered; credential is what navigator.credentials.get() answered for the options.',
  },
  passkeySignInOptions: {
    response: { options: { ...passkeyRequestOptions, allowCredentials: [], userVerification: 'required' } },
    error: { status: 400, body: { error: ERRORS.hostNotServed } },
  },
  passkeySignIn: {
    body: {
      credential: {
        ...passkeyAuthenticationCredential,
        response: { ...passkeyAuthenticationCredential.response, userHandle: 'dTEyMzQ' },
      },
    },
    response: { token: EXAMPLE_TOKEN, user },
    error: unauthorized(TWO_FACTOR.passkeyUnknownAnywhere),
  },
  adminResetTwoFactor: {
    params: { id: USER_ID },
    response: { success: true, message: TWO_FACTOR.adminResetDone },
    error: { status: 409, body: { error: TWO_FACTOR.adminResetNothing } },
  },
  ...teamExamples({ owner: user, script, scriptIdPlaceholder: SCRIPT_ID_PLACEHOLDER }),
};
