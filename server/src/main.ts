import http from 'node:http';
import { buildApp } from './app.ts';
import { createLogger } from './logger.ts';
import { exitOnStartFailure, loadConfigOrExit, stopOnSignals } from './process/lifecycle.ts';

const LISTEN_BACKLOG = 8192;

/**
 * Starts Moonrelay and stops it gracefully: on SIGTERM/SIGINT it stops accepting connections,
 * lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), then closes the database last.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const app = await buildApp(config, logger);
  const server = http.createServer(app.requestListener);
  app.attachRealtime(server);
  // Keep-alive sockets must not outlive a shutdown by long.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A restart brings every game server back within one ping interval: with Node's default backlog
    // (511) the kernel drops the excess connects and each retries after 1, 3, 7 s. The kernel caps
    // it at net.core.somaxconn.
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { port, database: app.database.kind, dataDir: config.dataDir },
    `Moonrelay listening on http://localhost:${port}`,
  );

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    forced.unref();
    // Keep-alive connections become idle as their last response ends; close each one as it does.
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Long-polling games are answered now (they ping again, elsewhere or after the restart).
    app.drain();
    await closed;
    clearInterval(sweeper);
    clearTimeout(forced);
    await app.close();
    logger.info('stopped');
  });
}

main().catch(exitOnStartFailure('Moonrelay'));
