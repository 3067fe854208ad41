import { buildValidScript } from './corpus.test-support.ts';
import { createLuaToolsService } from './lua-tools.service.ts';

/**
 * Times checks and formats through the service (worker thread included):
 *   npx tsx server/src/modules/lua-tools/lua-tools.measure.ts
 * Budget: a 100 KB check takes 150 ms or less (median of 10 after warm-up).
 */

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};

async function time(run: () => Promise<unknown>, warmUp: number, count: number): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

function report(label: string, times: number[]): void {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `${label}: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, min ${ms(Math.min(...times))}`,
  );
}

const small = [
  'local Players = game:GetService("Players")',
  'local function greet(player: Player): string',
  '  return `hello {player.Name}`',
  'end',
  'Players.PlayerAdded:Connect(function(player) print(greet(player)) end)',
].join('\n');
const hundredKilobytes = buildValidScript(100 * 1024);
const oneMegabyte = buildValidScript(1024 * 1024);
const invalid100Kb = `${hundredKilobytes}\nlocal broken = = 1\n`;

const tools = createLuaToolsService({ threads: 1 });
try {
  let started = performance.now();
  await tools.check('local x = 1');
  console.log(`thread start + first check: ${(performance.now() - started).toFixed(0)} ms`);

  report(`check small (${small.length} B), 200 calls`, await time(() => tools.check(small), 20, 200));
  report(
    `check 100 KB (${Buffer.byteLength(hundredKilobytes)} B), median of 10 after 3 warm-up`,
    await time(() => tools.check(hundredKilobytes), 3, 10),
  );
  report('check 100 KB with a syntax error at the end', await time(() => tools.check(invalid100Kb), 3, 10));

  started = performance.now();
  await tools.check(oneMegabyte);
  console.log(`check 1 MB, first time in the thread: ${(performance.now() - started).toFixed(0)} ms`);
  report('check 1 MB, warm', await time(() => tools.check(oneMegabyte), 1, 5));

  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    maxGap = Math.max(maxGap, performance.now() - last);
    last = performance.now();
  }, 10);
  await tools.check(oneMegabyte);
  clearInterval(ticker);
  console.log(`main-loop 10 ms interval, longest gap during a 1 MB check: ${maxGap.toFixed(1)} ms`);
  report('format small', await time(() => tools.format(small), 20, 100));
  report('format 100 KB', await time(() => tools.format(hundredKilobytes), 2, 5));
} finally {
  await tools.close();
}
