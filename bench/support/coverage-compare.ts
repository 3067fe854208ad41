/**
 * Two coverage runs side by side, from the json-summary files `npm run test:coverage` writes
 * (coverage/coverage-summary.json): the totals, and every file whose statement or branch coverage
 * fell by more than `points` (2 unless told). Exits 1 when a file lost more than that or the total
 * dropped, so a change to the suite that stops checking something shows up as a number.
 * Usage: tsx bench/support/coverage-compare.ts before.json after.json [points]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Metric {
  total: number;
  covered: number;
  pct: number | 'Unknown';
}
type Summary = Record<string, { statements: Metric; branches: Metric }>;

const [beforePath, afterPath, pointsText = '2'] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('Usage: tsx bench/support/coverage-compare.ts before.json after.json [points]');
  process.exit(2);
}
const allowedLoss = Number(pointsText);
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Summary;
const before = read(beforePath);
const after = read(afterPath);

// The summaries name files by absolute path; two checkouts differ only in the part before the repository.
const byRelativePath = (summary: Summary) => {
  const total = summary.total!;
  const files = new Map<string, Summary[string]>();
  for (const [file, metrics] of Object.entries(summary)) {
    if (file === 'total') continue;
    const marker = file.search(/\/(contract|server|worker|lua|web)\//);
    files.set(marker >= 0 ? file.slice(marker + 1) : path.basename(file), metrics);
  }
  return { total, files };
};
const a = byRelativePath(before);
const b = byRelativePath(after);
const pct = (metric: Metric) => (metric.total === 0 ? 100 : (100 * metric.covered) / metric.total);
const show = (value: number) => value.toFixed(2).padStart(6);

console.log('Coverage       before   after   change');
for (const kind of ['statements', 'branches'] as const) {
  const was = pct(a.total[kind]);
  const now = pct(b.total[kind]);
  console.log(`${kind.padEnd(12)} ${show(was)}% ${show(now)}% ${(now - was >= 0 ? '+' : '') + (now - was).toFixed(2)}`);
}

const losses: string[] = [];
for (const [file, was] of a.files) {
  const now = b.files.get(file);
  if (!now) continue;
  for (const kind of ['statements', 'branches'] as const) {
    const loss = pct(was[kind]) - pct(now[kind]);
    if (loss > allowedLoss) losses.push(`${file} ${kind}: ${show(pct(was[kind]))}% -> ${show(pct(now[kind]))}%`);
  }
}
const totalDropped = (['statements', 'branches'] as const).some((kind) => pct(b.total[kind]) < pct(a.total[kind]));
console.log(`\nFiles losing more than ${allowedLoss} points: ${losses.length}`);
for (const line of losses) console.log(`  ${line}`);
if (losses.length > 0 || totalDropped) process.exit(1);
