/**
 * Runs one benchmark: `npm run bench -- <name> [options]`.
 * Each benchmark is `bench/<name>.ts` (or the file FILES names) exporting `run(args)`; add its name
 * to BENCHMARKS.
 */

export const BENCHMARKS = [
  'http',
  'web',
  'sandbox',
  'game',
  'fleet',
  'luau',
  'luau-sandbox',
  'game-script',
  'login',
  'versions',
  'players',
  'notifications',
  'teams',
  'cloud-runs',
  'cli-push',
  'lists',
];

/** Benchmarks whose file is not named after them. */
const FILES: Record<string, string> = { luau: 'luau-parse' };

interface Benchmark {
  run(args: string[]): Promise<void>;
}

const [name, ...args] = process.argv.slice(2);
if (!name || !BENCHMARKS.includes(name)) {
  console.error(`Usage: npm run bench -- <name> [options]\nAvailable benchmarks: ${BENCHMARKS.join(', ')}`);
  process.exit(1);
}

const benchmark = (await import(`./${FILES[name] ?? name}.ts`)) as Benchmark;
try {
  await benchmark.run(args);
} catch (error) {
  console.error(`bench ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
