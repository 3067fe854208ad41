import { ConfigError, loadConfig, type Config } from '../config.ts';

/** The settings, or exit 1 with the message naming each invalid one (the server and the worker). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0. A second signal while stopping is
 * ignored: the shutdown already under way decides when the process ends.
 */
export function stopOnSignals(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void stop(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

/** A start that failed: one line saying why, exit 1. */
export function exitOnStartFailure(what: string): (error: unknown) => void {
  return (error) => {
    console.error(`${what} failed to start:`, error instanceof Error ? error.message : error);
    process.exit(1);
  };
}
