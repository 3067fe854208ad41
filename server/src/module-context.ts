import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createIdempotency } from './http/idempotency.ts';
import { createRateLimits } from './http/rate-limit.ts';
import { createServerUrl } from './http/server-url.ts';
import type { Logger } from './logger.ts';
import type { AppOverrides, ModuleContext } from './modules/module.ts';
import type { Platform } from './platform/platform.ts';
import { createReactions, tellWhatIsPublished } from './platform/reactions.ts';
import { createSecretBox } from './security/secret-box.ts';
import { loadServerSecret } from './security/server-secret.ts';

/**
 * What every module may use, made once per process: the database, the platform's pieces, the
 * in-process reactions, the counters and secret boxes, and the HTTP pieces routes share.
 */
export function createModuleContext(
  config: Config,
  database: DatabaseHandle,
  logger: Logger,
  platform: Platform,
  overrides: AppOverrides = {},
): ModuleContext {
  const reactions = createReactions();
  const serverSecret = loadServerSecret(config.appSecret, config.dataDir);
  const counters = new Map<string, ReturnType<Platform['rateLimitBackend']['counter']>>();
  const counter: ModuleContext['counter'] = (name, limit, windowSeconds) => {
    let made = counters.get(name);
    if (!made) counters.set(name, (made = platform.rateLimitBackend.counter(name, limit, windowSeconds)));
    return made;
  };
  return {
    config,
    database,
    db: database.db,
    logger,
    platform,
    // What this process publishes is also told as a reaction (notifications raise events from it).
    bus: tellWhatIsPublished(platform.bus, reactions),
    presence: platform.presence,
    jobs: platform.jobs,
    reactions,
    rateLimits: createRateLimits(platform.rateLimitBackend, config.rateLimit),
    loginAttempts: counter('login-attempts', config.loginThrottle.maxFailures, config.loginThrottle.lockoutSeconds),
    idempotency: createIdempotency(database.db),
    serverUrl: createServerUrl({ publicUrl: config.publicUrl, publicHosts: config.publicHosts }),
    counter,
    serverSecret,
    secretBox: (purpose) => createSecretBox(serverSecret, purpose),
    overrides,
  };
}
