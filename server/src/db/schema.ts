import type { Generated } from 'kysely';

/**
 * Table types as Kysely sees them (camelCase; the CamelCasePlugin maps to snake_case columns).
 * Booleans are stored as 0/1 integers and times as ISO 8601 UTC text on both engines, so one set of
 * migrations and one set of queries serve SQLite and PostgreSQL alike (docs/decisions/002).
 */

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  username: string;
  /** Lower-cased username: usernames are unique regardless of case. */
  usernameKey: string;
  name: string;
  passwordHash: string | null;
  googleId: string | null;
  isAdmin: Flag;
  createdAt: string;
  updatedAt: string;
  /** 'person', or 'team': an account people act on as its members (migration 028). */
  kind: Generated<string>;
}

/** Who belongs to a team besides the team account itself, and what they may do in it. */
export interface TeamMembersTable {
  teamId: string;
  userId: string;
  /** JSON array of team permissions. */
  permissions: string;
  joinedAt: string;
}

/** A read-only share link of a script. */
export interface ScriptSharesTable {
  id: string;
  scriptId: string;
  /** The account (a person's or a team's) that owns the script. */
  userId: string;
  /** SHA-256 of the link's token; the token itself is never stored. */
  tokenHash: string;
  createdBy: string | null;
  createdAt: string;
}

/** An invitation link into a team: single use, until it expires. */
export interface TeamInvitationsTable {
  id: string;
  teamId: string;
  /** SHA-256 of the link's token; the token itself is never stored. */
  tokenHash: string;
  /** JSON array of the permissions the member will have. */
  permissions: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  usedBy: string | null;
}

export interface SessionsTable {
  id: string;
  userId: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenHash: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  /** 'password', 'passkey', 'google' or 'registration' (a row written without it: 'password'). */
  signedInWith: Generated<string>;
  /** The second factor passed at sign-in ('code' or 'passkey'), or since, in this session; null: none. */
  secondFactor: string | null;
  signInAddress: string | null;
  lastAddress: string | null;
  userAgent: string | null;
  /** When the session last proved itself (sign-in, password, code or passkey): sudo mode lasts 10 minutes from it. */
  provedAt: string | null;
}

export interface ApiKeysTable {
  id: string;
  userId: string;
  /** SHA-256 of the key, for lookup. */
  keyHash: string;
  /** AES-256-GCM sealed copy, so the screens can show the key again. */
  keyCiphertext: string;
  createdAt: string;
  /** The member who made the team's key: the key can do no more than they can now. Null: the account's own. */
  createdBy: string | null;
}

/** A named key with scopes beside the personal key (docs/decisions/029). */
export interface ScopedApiKeysTable {
  id: string;
  userId: string;
  name: string;
  /** SHA-256 of the key, for lookup. */
  keyHash: string;
  /** First 8 characters, an ellipsis, last 4: what lists show. */
  maskedKey: string;
  /** AES-256-GCM sealed copy: the integration key only, which the dashboard shows again. */
  keyCiphertext: string | null;
  integration: Flag;
  /** JSON array of scopes. */
  scopes: string;
  /** JSON array of addresses and CIDR ranges; null, anywhere. */
  allowedIps: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  /** The member who made the team's key: the key can do no more than they can now. Null: the account's own. */
  createdBy: string | null;
}

export interface ScriptsTable {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  code: string;
  isAutoExecute: Flag;
  isPublic: Flag;
  executionCount: number;
  gameId: string | null;
  gameName: string | null;
  gameImageUrl: string | null;
  /** JSON text of the autoExecuteGames map. */
  autoExecuteGames: string | null;
  createdAt: string;
  updatedAt: string;
  /** The number of the script's current version (script_versions). */
  version: Generated<number>;
  /** The name of the API key of the last save, when it was made with a key. */
  lastChangedByKey: Generated<string | null>;
}

/** A script as it stood after one save (the last SCRIPT_VERSIONS_KEPT per script). */
export interface ScriptVersionsTable {
  scriptId: string;
  number: number;
  name: string;
  description: string | null;
  code: string;
  /** The code's size in UTF-8 bytes, and its lines (kept so the History never scans the code). */
  codeBytes: number;
  lines: number;
  isAutoExecute: Flag;
  isPublic: Flag;
  gameId: string | null;
  gameName: string | null;
  gameImageUrl: string | null;
  autoExecuteGames: string | null;
  /** Who saved it; null once that account is gone. */
  savedBy: string | null;
  /** session | key | restore */
  savedVia: string;
  /** The name of the API key the save was made with. */
  savedByKey: Generated<string | null>;
  /** A restore: the version it brought back. */
  restoredFrom: number | null;
  createdAt: string;
}

export interface ExecutionsTable {
  id: string;
  userId: string;
  scriptId: string | null;
  target: 'game' | 'sandbox' | 'dry-run' | 'cloud';
  /** succeeded | failed | not_connected | queued (a game run waiting for its result) */
  status: string;
  /** The first 500 characters of what ran, so the history says what it was. */
  codeExcerpt: string;
  output: string;
  error: string | null;
  limitHit: string | null;
  durationMs: number;
  createdAt: string;
  /** The admin who started it on this user's game (null: the user's own run). */
  initiatedBy: string | null;
  /** The game server a game run went to (null: the sandbox, a dry run, or no game connected). */
  serverId: string | null;
  /** The script's name when it ran (the script may be renamed or deleted since). */
  scriptName: string | null;
  /** Who started it: user | admin | schedule | auto-execute (default user). */
  initiator: Generated<string>;
  /** SHA-256 of the full code that ran, kept in execution_code; null for runs recorded before it was kept. */
  codeHash: string | null;
  /** The version of the saved script that ran (null: custom code, or a run from before versions were kept). */
  scriptVersion: Generated<number | null>;
  /** The person who started it (a team's member, the account's owner, a schedule's maker); null: nobody did. */
  actorId: Generated<string | null>;
  /** Their name when it ran. */
  actorName: Generated<string | null>;
  /** The API key's name when one started it. */
  keyName: Generated<string | null>;
}

/** The full code of a user's runs, once per distinct code (executions.code_hash). */
export interface ExecutionCodeTable {
  userId: string;
  codeHash: string;
  code: string;
  createdAt: string;
}

export interface GameCommandsTable {
  id: string;
  userId: string;
  serverId: string | null;
  type: string;
  /** JSON text of the command's data. */
  data: string;
  /** queued | delivered | succeeded | failed | expired */
  status: string;
  /** dashboard | execution | admin */
  source: string;
  executionId: string | null;
  attempts: number;
  leaseUntil: string | null;
  output: string | null;
  error: string | null;
  durationMs: number | null;
  createdAt: string;
  expiresAt: string;
  deliveredAt: string | null;
  completedAt: string | null;
  /** The broadcast this is one server's copy of (game_broadcasts), or null for a command of its own. */
  broadcastId: string | null;
}

/** A command to every live game server of a user: one row, each server's copy made when it takes it. */
export interface GameBroadcastsTable {
  id: string;
  userId: string;
  type: string;
  /** JSON text of the command's data. */
  data: string;
  /** dashboard | admin */
  source: string;
  /** Live servers when it was sent. */
  servers: number;
  taken: Generated<number>;
  succeeded: Generated<number>;
  failed: Generated<number>;
  /** The first failure's error. */
  firstError: Generated<string | null>;
  createdAt: string;
  expiresAt: string;
  endedAt: string | null;
}

/** The last refused ping of a game server (migration 015). */
export interface GamePingRefusalsTable {
  userId: string;
  serverId: string;
  reason: string;
  refusedAt: string;
}

export interface GameServersTable {
  userId: string;
  serverId: string;
  /** JSON text of the last player data. */
  gameData: string | null;
  connectedAt: string;
  lastPing: string;
  disconnectedAt: string | null;
}

export interface AuditLogTable {
  id: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  /** JSON text of the details object. */
  details: string;
  createdAt: string;
  /** The team (account) the action was made on; null for entries about no team (a login, the CLI). */
  teamId: Generated<string | null>;
}

/** Requests of one user to one endpoint (route pattern) in one minute (or, after two days, one hour). */
export interface RequestMetricsTable {
  userId: string;
  /** ISO 8601 UTC start of the minute (or of the hour, once compacted). */
  minute: string;
  endpoint: string;
  requestCount: number;
  /** Answers with a 4xx or 5xx status. */
  errorCount: number;
  totalDurationMs: number;
  maxDurationMs: number;
}

/** Code kept for a long script's loader (POST /api/scripts/temp); one row per distinct code per user. */
export interface TempScriptsTable {
  id: string;
  userId: string;
  /** SHA-256 of the code, so the same code is kept once. */
  codeHash: string;
  code: string;
  createdAt: string;
}

/** A started sign-in (or link) with the identity provider, redeemed once (docs/decisions/012). */
export interface OidcStatesTable {
  /** SHA-256 of the state parameter; the state itself travels only through the browser. */
  stateHash: string;
  /** sign-in | link */
  purpose: string;
  /** The account being linked; null for a sign-in. */
  userId: string | null;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  createdAt: string;
  expiresAt: string;
}

/** One user's part of a mass execution (docs/operations.md, "Mass executions when a worker dies"). */
export interface MassExecutionItemsTable {
  batchId: string;
  userId: string;
  /** queued | sending (claimed by a job) | sent | delivered | succeeded | failed | not_connected | expired */
  status: string;
  /** The part's command (a command batch), derived from the batch and the user. */
  commandId: string | null;
  /** The part's run (a code batch), derived from the batch and the user. */
  executionId: string | null;
  output: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One mass execution: who started it and when its last part ended (told once: "mass execution finished"). */
export interface MassExecutionBatchesTable {
  batchId: string;
  /** The admin who started it (null once their account is deleted). */
  initiatedBy: string | null;
  /** command | code */
  kind: string;
  createdAt: string;
  finishedAt: string | null;
}

/** A request made with an Idempotency-Key, and its answer once it has one (kept 24 hours). */
export interface IdempotencyKeysTable {
  /** Whose key: the user the session or API key belongs to. */
  principal: string;
  key: string;
  /** SHA-256 of the method, path and body. */
  fingerprint: string;
  /** pending | done */
  status: string;
  responseStatus: number | null;
  /** JSON text of the first answer. */
  responseBody: string | null;
  createdAt: string;
}

/** One line of a game server's console (docs/decisions/023). */
export interface ConsoleLinesTable {
  /** Handed out by the database in insert order; a number on SQLite, a bigint (read as text) on PostgreSQL. */
  id: Generated<number | string>;
  userId: string;
  serverId: string;
  /** When the game logged it, by the game's clock. */
  time: string;
  /** output | info | warning | error */
  level: string;
  text: string;
  stack: string | null;
  script: string | null;
  /** The integration script's own `[Moonrelay]` lines (and Moonrelay's drop markers). */
  own: Flag;
  executionId: string | null;
  /** Marker lines only: how many lines were lost just before this one. */
  dropped: number | null;
  receivedAt: string;
}

/** A saved script's scheduled runs (migration 016). */
export interface SchedulesTable {
  id: string;
  userId: string;
  scriptId: string;
  /** cron | interval */
  kind: string;
  cron: string | null;
  timeZone: string | null;
  intervalSeconds: number | null;
  /** sandbox | dry-run | all-servers | server */
  target: string;
  serverId: string | null;
  enabled: Flag;
  /** The due time of the last run claimed (each due time is claimed once). */
  lastDueAt: string | null;
  /** While a claimed run is running: until when its claim holds. */
  runningUntil: string | null;
  lastRunId: string | null;
  lastRunAt: string | null;
  lastError: string | null;
  skippedCount: number;
  createdAt: string;
  updatedAt: string;
  /** The team's member who set (or last changed) it: it runs while they may run code there. Null: the account's own. */
  createdBy: Generated<string | null>;
}

/** An account's authenticator secret (sealed); asked for at sign-in once confirmed_at is set. */
export interface TotpFactorsTable {
  userId: string;
  secretSealed: string;
  confirmedAt: string | null;
  /** The TOTP step of the last accepted code: codes of it or earlier steps are refused. */
  lastTimeStep: number | null;
  createdAt: string;
}

/** One-time recovery codes, stored as SHA-256; used_at is set when one is spent. */
export interface RecoveryCodesTable {
  id: string;
  userId: string;
  codeHash: string;
  usedAt: string | null;
  createdAt: string;
}

/** A registered passkey (WebAuthn credential), a second factor of its account. */
export interface PasskeysTable {
  id: string;
  userId: string;
  /** base64url, as the authenticator made it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last reported; a bigint (read as text) on PostgreSQL. */
  counter: number | string;
  /** JSON array of the transports the browser named. */
  transports: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A challenge handed out for a passkey registration or sign-in; deleted by the one request using it. */
export interface PasskeyChallengesTable {
  challenge: string;
  /** Null for a first-factor sign-in, where the passkey names the account. */
  userId: string | null;
  /** register and sign-in (the second step) belong to an account; passkey-sign-in to none yet. */
  purpose: 'register' | 'sign-in' | 'passkey-sign-in';
  expiresAt: string;
}

/** A Roblox user seen in the owner's game servers (migration 020). */
export interface PlayersTable {
  userId: string;
  /** The Roblox user id, as text (negative for Studio's test players). */
  robloxUserId: string;
  name: string;
  displayName: string | null;
  /** `name` lower-cased, for search by prefix (migration 023). */
  nameKey: Generated<string>;
  /** `displayName` lower-cased. */
  displayNameKey: string | null;
  accountAgeDays: number | null;
  firstSeen: string;
  lastSeen: string;
  /** Seconds played in finished sessions. */
  playSeconds: Generated<number>;
  sessions: Generated<number>;
}

/** Each name and display name a player was seen with ('' for no display name). */
export interface PlayerNamesTable {
  userId: string;
  robloxUserId: string;
  name: string;
  displayName: string;
  firstSeen: string;
}

/** One stay of a player on one game server; open (leftAt null) while they are there. */
export interface PlayerSessionsTable {
  id: string;
  userId: string;
  robloxUserId: string;
  serverId: string;
  joinedAt: string;
  leftAt: string | null;
}

/** A note, warning, kick, ban or unban an owner took on a Roblox player (migration 021). */
export interface ModerationActionsTable {
  id: string;
  userId: string;
  robloxUserId: string;
  /** note | warning | kick | ban | unban */
  kind: string;
  actorId: string | null;
  actorName: string | null;
  message: string;
  privateReason: string | null;
  /** null: permanent */
  durationSeconds: number | null;
  excludeAltAccounts: Generated<number>;
  /** game | open_cloud; null for notes */
  path: string | null;
  /** pending | applied | failed */
  state: string;
  error: string | null;
  commandId: string | null;
  /** When commandId was set; a claim whose command never appeared is released after a while. */
  claimedAt: string | null;
  serverId: string | null;
  replaces: string | null;
  endedBy: string | null;
  createdAt: string;
  completedAt: string | null;
  /**
   * When a timed ban's time runs out: its length after it took effect (applied), or after it was
   * asked for while pending (migration 036). Null for a permanent ban and every other kind.
   */
  endsAt: string | null;
}

/** A user's notification destination (migration 019); URL and secret sealed. */
export interface NotificationDestinationsTable {
  id: string;
  userId: string;
  /** discord | webhook */
  kind: string;
  name: string;
  urlSealed: string;
  maskedUrl: string;
  secretSealed: string | null;
  /** The chosen events, comma-separated. */
  events: string;
  pausedAt: string | null;
  pausedReason: string | null;
  failuresInRow: number;
  lastDeliveryAt: string | null;
  /** The lease of the process delivering this destination's events, one at a time, in order. */
  deliveringUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An event waiting for (or done with) delivery to one destination. */
export interface NotificationDeliveriesTable {
  id: string;
  destinationId: string;
  eventId: string;
  event: string;
  /** The event's JSON (what a generic webhook receives as its body). */
  payload: string;
  occurredAt: string;
  seq: number | string;
  /** pending | delivered | failed */
  state: string;
  attempts: number;
  nextAttemptAt: string;
  deliveredAt: string | null;
}

/** One delivery attempt (the delivery log). */
export interface NotificationAttemptsTable {
  id: string;
  destinationId: string;
  eventId: string;
  event: string;
  at: string;
  seq: number | string;
  status: number | null;
  error: string | null;
  latencyMs: number;
  answer: string;
}

/** An address a user has signed in from (migration 019). */
export interface SignInAddressesTable {
  userId: string;
  address: string;
  firstSeenAt: string;
}

/** A user's Roblox Open Cloud key (migration 022): the universe and the sealed API key. */
export interface OpenCloudKeysTable {
  userId: string;
  universeId: string;
  keySealed: string;
  maskedKey: string;
  /** The lease of the process sending this owner's restriction updates, in order. */
  sendingUntil: string | null;
  /** The lease of the process importing this owner's bans. */
  importingUntil: string | null;
  /** The newest listLogs createTime imported. */
  logsImportedUntil: string | null;
  lastImportAt: string | null;
  lastImportError: string | null;
  createdAt: string;
  updatedAt: string;
  /** The place cloud runs use, and its pinned version (null: the newest). */
  placeId: string | null;
  placeVersion: string | null;
  /** JSON array of the key's "scope:operation"s from Roblox's introspection; null when unknown. */
  scopes: string | null;
  /** The lease of the process following this owner's cloud tasks. */
  followingUntil: string | null;
}

/** A cloud run's task in Roblox (docs/decisions/050-cloud-runs.md); its id is the run's. */
export interface CloudTasksTable {
  executionId: string;
  ownerId: string;
  universeId: string;
  placeId: string;
  placeVersion: string | null;
  script: string;
  timeoutSeconds: number;
  seq: number;
  /** pending | done */
  state: string;
  /** waiting | creating | queued | running | ending (read its last logs) | succeeded | failed | timed_out | cancelled */
  phase: string;
  taskPath: string | null;
  nextAttemptAt: string;
  attempts: number;
  createSentAt: string | null;
  acceptedAt: string | null;
  logsPageToken: string | null;
  logsPageSkip: number;
  logCount: number;
  waitingReason: string | null;
  errorCode: string | null;
  error: string | null;
  /** JSON of the task's output.results. */
  results: string | null;
  createdAt: string;
  doneAt: string | null;
}

export interface CloudTaskLogsTable {
  executionId: string;
  seq: number;
  message: string;
  type: string;
  time: string | null;
}

/** A restriction update for Roblox, queued durably; its id is the moderation action's. */
export interface OpenCloudUpdatesTable {
  id: string;
  ownerId: string;
  robloxUserId: string;
  active: number;
  /** Null: permanent. */
  durationSeconds: number | string | null;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: number;
  seq: number | string;
  /** pending | applied | failed */
  state: string;
  attempts: number;
  firstSentAt: string | null;
  nextAttemptAt: string;
  error: string | null;
  createdAt: string;
  doneAt: string | null;
  reportedAt: string | null;
}

/** When an update was sent to Roblox (the pacing's memory). */
export interface OpenCloudSendsTable {
  universeId: string;
  robloxUserId: string;
  sentAt: string;
}

/** One entry of Roblox's restriction history (listLogs), imported. */
export interface OpenCloudBanLogsTable {
  id: string;
  ownerId: string;
  universeId: string;
  robloxUserId: string;
  placeId: string | null;
  moderator: string;
  createTime: string;
  active: number;
  startTime: string | null;
  durationSeconds: number | string | null;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: number;
  importedAt: string;
}

/** A restriction in force in the owner's universe, as Roblox listed it at the last import. */
export interface OpenCloudActiveBansTable {
  ownerId: string;
  universeId: string;
  robloxUserId: string;
  startTime: string | null;
  durationSeconds: number | string | null;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: number;
  updateTime: string | null;
}

export interface Database {
  users: UsersTable;
  teamMembers: TeamMembersTable;
  teamInvitations: TeamInvitationsTable;
  scriptShares: ScriptSharesTable;
  sessions: SessionsTable;
  apiKeys: ApiKeysTable;
  scopedApiKeys: ScopedApiKeysTable;
  scripts: ScriptsTable;
  scriptVersions: ScriptVersionsTable;
  executions: ExecutionsTable;
  executionCode: ExecutionCodeTable;
  gameCommands: GameCommandsTable;
  gameBroadcasts: GameBroadcastsTable;
  gameServers: GameServersTable;
  gamePingRefusals: GamePingRefusalsTable;
  auditLog: AuditLogTable;
  requestMetrics: RequestMetricsTable;
  tempScripts: TempScriptsTable;
  oidcStates: OidcStatesTable;
  massExecutionItems: MassExecutionItemsTable;
  massExecutionBatches: MassExecutionBatchesTable;
  idempotencyKeys: IdempotencyKeysTable;
  consoleLines: ConsoleLinesTable;
  schedules: SchedulesTable;
  totpFactors: TotpFactorsTable;
  recoveryCodes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  passkeyChallenges: PasskeyChallengesTable;
  players: PlayersTable;
  playerNames: PlayerNamesTable;
  playerSessions: PlayerSessionsTable;
  moderationActions: ModerationActionsTable;
  notificationDestinations: NotificationDestinationsTable;
  notificationDeliveries: NotificationDeliveriesTable;
  notificationAttempts: NotificationAttemptsTable;
  signInAddresses: SignInAddressesTable;
  openCloudKeys: OpenCloudKeysTable;
  openCloudUpdates: OpenCloudUpdatesTable;
  openCloudSends: OpenCloudSendsTable;
  openCloudBanLogs: OpenCloudBanLogsTable;
  openCloudActiveBans: OpenCloudActiveBansTable;
  cloudTasks: CloudTasksTable;
  cloudTaskLogs: CloudTaskLogsTable;
}
