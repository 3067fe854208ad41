/**
 * `npm run seed -- heavy [--scale=F] [--database=<sqlite path or postgres url>] [--serve=PORT]`
 *
 * Fills a database with the heavy account (scripts/seed/heavy.ts): what a successful game has, to
 * judge the screens' speed with. The app is built as the server builds it (migrations included)
 * and the data goes through its services. Without --database, DATABASE_URL (or the data folder's
 * SQLite file) is used, as `npm start` would. A database that already has the heavy account is
 * refused.
 *
 * The live servers are kept in presence, which lives in the process (or in Redis with REDIS_URL):
 * once the seed exits they stop pinging and a server started later ends their players' sessions
 * after its first minute. `--serve=PORT` serves the seeded app on PORT afterwards, keeping those
 * servers live, until SIGINT/SIGTERM (bench/lists.ts uses it); it prints one `SEEDED {json}` line
 * with the owner's session first.
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/src/app.ts';
import { createLogger } from '../server/src/logger.ts';
import { hasHeavyOwner, seedConfig, seedHeavy } from './seed/heavy.ts';

const USAGE = 'Usage: npm run seed -- heavy [--scale=F] [--database=<sqlite path or postgres url>] [--serve=PORT]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      scale: { type: 'string', default: '1' },
      database: { type: 'string' },
      serve: { type: 'string' },
    },
  });
  if (positionals[0] !== 'heavy' || positionals.length !== 1) throw new Error(USAGE);
  const scale = Number(values.scale);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 10) throw new Error('--scale: a number above 0, 10 at most');
  const port = values.serve === undefined ? undefined : Number(values.serve);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65_536))
    throw new Error('--serve: a port number');

  const config = seedConfig(values.database);
  const logger = createLogger(config.logLevel);
  const where = config.database.kind === 'sqlite' ? config.database.file : config.database.url;
  console.log(`Seeding the heavy account at scale ${scale} into ${where}`);
  const started = performance.now();
  const app = await buildApp(config, logger);
  let closeApp = async () => app.close();
  try {
    if (await hasHeavyOwner(app.database.db)) {
      console.error(
        `Refused: ${where} already has the heavy account. Seed a fresh database (or drop this one) instead.`,
      );
      process.exitCode = 1;
      return;
    }
    const seeded = await seedHeavy(app, { scale, log: (line) => console.log(`  ${line}`) });
    const total = (performance.now() - started) / 1000;
    console.log(`Seeded in ${total.toFixed(1)} s`);
    console.log(`  username: ${seeded.username}`);
    console.log(`  password: ${seeded.password}`);
    console.log(`  API key:  ${seeded.apiKey}`);
    console.log(`  counts:   ${JSON.stringify(seeded.counts)}`);
    if (port === undefined) {
      seeded.stopPresence();
      return;
    }
    const server = http.createServer(app.requestListener);
    app.attachRealtime(server);
    await new Promise<void>((resolve) => server.listen(port, config.host, resolve));
    const address = server.address();
    const listening = typeof address === 'object' && address ? address.port : port;
    const { userId, token, apiKey, counts, timings, scriptIds, consoleServerIds, destinationIds } = seeded;
    const summary = {
      ...{ userId, token, apiKey, counts, timings, port: listening, seconds: Math.round(total * 10) / 10 },
      ...{ scriptId: scriptIds[0], serverId: consoleServerIds[0], destinationId: destinationIds[0] },
    };
    console.log(`SEEDED ${JSON.stringify(summary)}`);
    closeApp = async () => {
      seeded.stopPresence();
      app.drain();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    };
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  } finally {
    await closeApp();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
