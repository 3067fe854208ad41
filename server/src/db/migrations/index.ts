import type { Migration, MigrationProvider } from 'kysely';
import * as accountsAndScripts from './001-accounts-and-scripts.ts';
import * as executions from './002-executions.ts';
import * as gameLink from './003-game-link.ts';
import * as auditLog from './004-audit-log.ts';
import * as requestMetrics from './005-request-metrics.ts';
import * as tempScripts from './006-temp-scripts.ts';
import * as oidcStates from './007-oidc-states.ts';
import * as executionInitiator from './008-execution-initiator.ts';
import * as runHistory from './009-run-history.ts';
import * as massExecutionItems from './010-mass-execution-items.ts';
import * as idempotencyKeys from './011-idempotency-keys.ts';
import * as consoleLines from './012-console-lines.ts';
import * as scriptVersions from './013-script-versions.ts';
import * as gamePingRefusals from './014-game-ping-refusals.ts';
import * as scopedApiKeys from './015-scoped-api-keys.ts';
import * as schedules from './016-schedules.ts';
import * as twoFactor from './017-two-factor.ts';
import * as passkeys from './018-passkeys.ts';
import * as notifications from './019-notifications.ts';
import * as players from './020-players.ts';
import * as moderation from './021-moderation.ts';
import * as openCloud from './022-open-cloud.ts';
import * as rosterSpeed from './023-roster-speed.ts';
import * as massExecutionBatches from './024-mass-execution-batches.ts';
import * as gameBroadcasts from './025-game-broadcasts.ts';
import * as sessionDetails from './026-session-details.ts';
import * as playerLimits from './027-player-limits.ts';
import * as teams from './028-teams.ts';
import * as teamActivity from './029-team-activity.ts';
import * as scriptShares from './030-script-shares.ts';
import * as scheduleMakers from './031-schedule-makers.ts';
import * as runActors from './032-run-actors.ts';
import * as cloudRuns from './033-cloud-runs.ts';
import * as runFilterIndexes from './034-run-filter-indexes.ts';
import * as scriptListIndex from './035-script-list-index.ts';
import * as banListPages from './036-ban-list-pages.ts';

/**
 * Migrations are listed in code (not read from a folder) so they work the same under tsx, vitest
 * and any bundler. Names sort in the order they must run; a new migration is a new line here.
 */
const migrations: Record<string, Migration> = {
  '001-accounts-and-scripts': accountsAndScripts,
  '002-executions': executions,
  '003-game-link': gameLink,
  '004-audit-log': auditLog,
  '005-request-metrics': requestMetrics,
  '006-temp-scripts': tempScripts,
  '007-oidc-states': oidcStates,
  '008-execution-initiator': executionInitiator,
  '009-run-history': runHistory,
  '010-mass-execution-items': massExecutionItems,
  '011-idempotency-keys': idempotencyKeys,
  '012-console-lines': consoleLines,
  '013-script-versions': scriptVersions,
  '014-game-ping-refusals': gamePingRefusals,
  '015-scoped-api-keys': scopedApiKeys,
  '016-schedules': schedules,
  '017-two-factor': twoFactor,
  '018-passkeys': passkeys,
  '019-notifications': notifications,
  '020-players': players,
  '021-moderation': moderation,
  '022-open-cloud': openCloud,
  '023-roster-speed': rosterSpeed,
  '024-mass-execution-batches': massExecutionBatches,
  '025-game-broadcasts': gameBroadcasts,
  '026-session-details': sessionDetails,
  '027-player-limits': playerLimits,
  '028-teams': teams,
  '029-team-activity': teamActivity,
  '030-script-shares': scriptShares,
  '031-schedule-makers': scheduleMakers,
  '032-run-actors': runActors,
  '033-cloud-runs': cloudRuns,
  '034-run-filter-indexes': runFilterIndexes,
  '035-script-list-index': scriptListIndex,
  '036-ban-list-pages': banListPages,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
