/**
 * Product constants (spec section 9). Every number the product shows or enforces lives here once,
 * so the server, the web app and the docs cannot disagree.
 */

export const APP_NAME = 'Moonrelay';
export const APP_VERSION = 'v1.0.0';

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound so a megabyte "password" cannot make argon2 the bottleneck. */
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;

export const SCRIPT_NAME_MAX_LENGTH = 200;
export const SCRIPT_DESCRIPTION_MAX_LENGTH = 2000;
/** Scripts may carry up to 1 MiB of code (UTF-8 bytes). */
export const SCRIPT_CODE_MAX_BYTES = 1024 * 1024;
/** Entries in a script's autoExecuteGames map ('all' plus specific games). */
export const AUTO_EXECUTE_GAMES_MAX_ENTRIES = 100;

/** A game counts as connected while its last ping is younger than this. */
export const GAME_CONNECTED_WINDOW_MS = 10_000;
export const GAME_STATUS_POLL_MS = 2_000;
/** While no game is connected, the status is read this often (live socket or not) to show refused pings. */
export const GAME_HEALTH_POLL_MS = 10_000;
/** A user's screens (and the admins') get at most one `game:servers` event this often. */
export const GAME_SERVERS_EVENT_INTERVAL_MS = 1_000;
export const GAME_PING_INTERVAL_MS = 2_000;
export const GAME_SCRIPT_SYNC_EVERY_N_PINGS = 5;
export const GAME_AUTO_EXECUTE_PAUSE_MS = 500;

/** Code longer than this travels as a temporary script fetched by a loader. */
export const LOADER_CODE_THRESHOLD_CHARS = 10_000;
export const CATALOGUE_PAGE_SIZE = 20;
export const RECENT_SCRIPTS_ON_DASHBOARD = 3;

export const QUICK_TELEPORTS = {
  spawn: { x: 0, y: 50, z: 0 },
  sky: { x: 0, y: 500, z: 0 },
  far: { x: 1000, y: 50, z: 1000 },
} as const;
export const BASE_WALK_SPEED = 16;
export const DASHBOARD_SPEED_MULTIPLIER = 2;
export const ADMIN_QUICK_SPEED = 50;
export const DEFAULT_HEALTH = 100;

export const DUPLICATE_SCRIPT_SUFFIX = ' (Copy)';
export const SAVE_AND_EXECUTE_DELAY_MS = 100;

/** Documented rate limits: requests per minute for one principal (session, API key or IP). */
export const RATE_LIMIT_GENERAL_PER_MINUTE = 100;
export const RATE_LIMIT_EXECUTION_PER_MINUTE = 50;

export const ADMIN_POLL_MS = {
  users: 10_000,
  connections: 5_000,
  audit: 30_000,
  executions: 15_000,
} as const;
export const COPY_FEEDBACK_MS = 2_000;
export const ADMIN_KEY_REVEAL_TOAST_MS = 10_000;
export const TOAST_DURATION_MS = 5_000;
export const IDENTIFIER_DISPLAY_LENGTH = 8;

export const EDITOR_FONT_SIZE = 14;
export const EDITOR_TAB_SIZE = 2;

/** API keys: shown masked as the first 8 characters, an ellipsis and the last 4. */
export const API_KEY_MASK_HEAD = 8;
export const API_KEY_MASK_TAIL = 4;
export const API_KEY_PREFIX = 'mr_';

/** Sessions expire after this long without use. */
export const SESSION_IDLE_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;

/** The path the identity provider sends the browser back to (spec section 2). */
export const OIDC_CALLBACK_PATH = '/auth/callback';
/** A started sign-in with the identity provider must come back within this long, once. */
export const OIDC_STATE_TTL_MS = 10 * 60 * 1000;
/** Longest code, state or redirectUri accepted from the callback. */
export const OIDC_FIELD_MAX_LENGTH = 2048;

/** Game link protocol (docs/protocol.md). */
export const GAME_PING_MAX_COMMANDS = 10;
export const GAME_PING_MAX_RESULTS = 20;
/**
 * The largest ping body the server reads (1 MiB); larger ones are answered 413. The integration
 * script keeps its pings well below it (its budgets: docs/protocol.md, checked by a test).
 */
export const GAME_PING_BODY_LIMIT_BYTES = 1024 * 1024;
/** A player's name as the ping carries it (Roblox's names are at most 20 characters). */
export const GAME_PLAYER_NAME_MAX_CHARS = 100;
/** Players a game server reports in its roster at most: Roblox's largest server holds 700. */
export const ROSTER_MAX_PLAYERS = 700;
export const GAME_LONG_POLL_MAX_SECONDS = 20;
export const GAME_COMMAND_RESULT_OUTPUT_MAX_CHARS = 64 * 1024;
/** A delivered command not acknowledged within its lease is delivered again. */
export const GAME_COMMAND_LEASE_MS = 10_000;
/** A command never delivered (or never answered) within this long expires. */
export const GAME_COMMAND_EXPIRY_MS = 10 * 60 * 1000;
/**
 * Commands waiting for one game server (queued or taken and not answered), and broadcasts of one
 * user open, at most: one more answers 429. A game takes 10 a ping, so a queue this long is a game
 * that stopped taking them, not one that is busy.
 */
export const GAME_OPEN_COMMANDS_MAX = 1_000;
/** How long an execute call on the game target waits for the game's result. */
export const GAME_EXECUTION_WAIT_MS = 8_000;
/** Presence is written to the database at most this often per game server (and on connect/disconnect). */
export const GAME_PRESENCE_PERSIST_MS = 30_000;
/**
 * The live game console (contract/src/console.ts). Per ping the game sends at most this many lines
 * and bytes, dropping the oldest (and counting them) when its scripts log faster than that.
 */
export const CONSOLE_BATCH_MAX_LINES = 200;
export const CONSOLE_BATCH_MAX_BYTES = 32 * 1024;
/** A console line's text and an error's stack are kept up to these lengths. */
export const CONSOLE_LINE_MAX_CHARS = 2_000;
export const CONSOLE_STACK_MAX_CHARS = 4_000;
/** Lines kept per game server by default (CONSOLE_LINES_PER_SERVER setting). */
export const CONSOLE_KEEP_LINES_PER_SERVER = 5_000;
/**
 * Lines one account may store a minute by default, per server instance (the
 * CONSOLE_LINES_PER_USER_PER_MINUTE setting); past it lines are dropped and counted, the ping still
 * succeeds. Set from the game benchmark's console shape (docs/decisions/023).
 */
export const CONSOLE_USER_LINES_PER_MINUTE = 600_000;
export const CONSOLE_PAGE_MAX_LINES = 500;
/** Lines a page of GET /api/game/console holds when the request names no limit. */
export const CONSOLE_PAGE_DEFAULT_LINES = 200;
export const CONSOLE_SEARCH_MAX_CHARS = 200;
/**
 * A filtered page (q, level or since) looks through at most this many lines (the newest below the
 * cursor), so one request costs the same however large the console: a page may then hold fewer
 * lines than its limit, even none, and still carry a nextCursor to look further back.
 */
export const CONSOLE_SEARCH_SCAN_LINES = 20_000;
/**
 * `console:lines` reaches a user's screens at most this often, with at most this many lines (the
 * newest; the rest are counted in a drop marker and stay in the API).
 */
export const CONSOLE_EVENT_INTERVAL_MS = 250;
export const CONSOLE_EVENT_MAX_LINES = 200;
/** Pings per minute one game server may send (a 2 s loop sends 30; long-poll answers add a few). */
export const RATE_LIMIT_GAME_PING_PER_MINUTE = 300;
/** Player profiles fetched from Roblox are kept this long. */
export const PLAYER_PROFILE_CACHE_MS = 10 * 60 * 1000;

/** The script catalogue (ScriptBlox), proxied by Moonrelay: the site credited under the results. */
export const CATALOGUE_NAME = 'ScriptBlox';
export const CATALOGUE_SITE_URL = 'https://scriptblox.com';
/** Imported scripts are named 'ScriptBlox: {title}' (spec section 9). */
export const CATALOGUE_IMPORT_PREFIX = `${CATALOGUE_NAME}: `;
export const CATALOGUE_SEARCH_MAX_LENGTH = 200;
/** Views shown as 1.5K from 1 000 and 2.3M from 1 000 000, one decimal (spec section 9). */
export const VIEWS_THOUSAND = 1_000;
export const VIEWS_MILLION = 1_000_000;
/** Catalogue answers are kept this long, and served stale (up to a day) while the catalogue fails. */
export const CATALOGUE_CACHE_MS = 5 * 60 * 1000;
export const CATALOGUE_STALE_MAX_MS = 24 * 60 * 60 * 1000;
/** One upstream call may take this long; calls start at most this often (about one a second). */
export const CATALOGUE_TIMEOUT_MS = 5_000;
export const CATALOGUE_MIN_INTERVAL_MS = 1_000;
/** Failures in a row (timeouts, refused connections, 5xx) after which no call goes to the catalogue for a while. */
export const CATALOGUE_BREAKER_FAILURES = 5;
/** How long the catalogue is left alone after that, before one probe call is tried. */
export const CATALOGUE_BREAKER_COOL_DOWN_MS = 30_000;

/** Schedules one user may have (over all their scripts). */
export const SCHEDULES_PER_USER_MAX = 20;

/** Where Socket.IO listens (the live push of contract/events.ts). */
export const SOCKET_PATH = '/socket.io';

/*
 * Values that modules with schemas also export (re-exported there): kept here too, because this
 * module defines no schema, so the web app's signed-in shell can use them without loading zod.
 */

/** The Console's levels, in Roblox's order of severity (contract/console.ts). */
export const CONSOLE_LEVELS = ['output', 'info', 'warning', 'error'] as const;
/** The admin lists' page size when none is asked for (contract/admin.ts). */
export const ADMIN_PAGE_SIZE_DEFAULT = 50;
/** How a run of custom code (no saved script) is named wherever runs are listed. */
export const CUSTOM_CODE_NAME = 'Custom code';
