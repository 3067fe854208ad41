import http from 'node:http';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

/**
 * Starts Moonrelay and stops it gracefully: on SIGTERM/SIGINT it stops accepting connections,
 * lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), then closes the database last.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const app = await buildApp(config, logger);
  const server = http.createServer(app.koa.callback());
  // Keep-alive sockets must not outlive a shutdown by long.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { port, database: app.database.kind, dataDir: config.dataDir },
    `Moonrelay listening on http://localhost:${port}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    forced.unref();
    // Keep-alive connections become idle as their last response ends; close each one as it does.
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearInterval(sweeper);
    clearTimeout(forced);
    await app.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Moonrelay failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
