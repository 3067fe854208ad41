/**
 * The suite's cost, from vitest's JSON report: the slowest files (wall time of each file) and the
 * slowest tests, with the total. `.ci/run` prints it after every run, so a change to the suite
 * shows what it costs. Usage: tsx bench/support/slowest-tests.ts test-results/vitest.json [count]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface AssertionResult {
  fullName: string;
  duration?: number | null;
  status: string;
}
interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
  assertionResults: AssertionResult[];
}
interface Report {
  numTotalTests: number;
  numFailedTests: number;
  startTime: number;
  testResults: FileResult[];
}

const [reportPath = 'test-results/vitest.json', countText = '25'] = process.argv.slice(2);
const count = Number(countText);
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
const relative = (file: string) => path.relative(process.cwd(), file);
const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);

const files = report.testResults
  .map((file) => ({
    name: relative(file.name),
    ms: file.endTime - file.startTime,
    tests: file.assertionResults.length,
  }))
  .sort((a, b) => b.ms - a.ms);
const tests = report.testResults
  .flatMap((file) =>
    file.assertionResults.map((test) => ({
      name: `${relative(file.name)} > ${test.fullName}`,
      ms: test.duration ?? 0,
    })),
  )
  .sort((a, b) => b.ms - a.ms);
const fileSum = files.reduce((sum, file) => sum + file.ms, 0);
// From the run's start to its last file's end: what `npm test` costs, several files at a time.
const wallMs = Math.max(...report.testResults.map((file) => file.endTime)) - report.startTime;

console.log(`\nSuite: ${files.length} files, ${report.numTotalTests} tests, ${report.numFailedTests} failed;`);
console.log(
  `${seconds(wallMs).trim()} s from start to the last file's end; file time summed ${seconds(fileSum).trim()} s.`,
);
console.log(`\nSlowest ${count} files (s, tests):`);
for (const file of files.slice(0, count))
  console.log(`${seconds(file.ms)}  ${String(file.tests).padStart(4)}  ${file.name}`);
console.log(`\nSlowest ${count} tests (s):`);
for (const test of tests.slice(0, count)) console.log(`${seconds(test.ms)}  ${test.name.slice(0, 160)}`);
