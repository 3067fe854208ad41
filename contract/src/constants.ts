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
