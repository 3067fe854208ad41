/**
 * Luau syntax check benchmark: `npm run bench -- luau [--runs N]`.
 *
 * 1. Parse + check of 100 KB of real Luau (the shared corpus's valid files, or without it those of
 *    Moonrelay's own corpus, each in a `do ... end`) with Moonrelay's parser (lua/luau/parser.ts):
 *    median of N after warm-up; target <= 50 ms.
 * 2. The StyLua check it replaces, on the same script in the same run (the baseline): StyLua's
 *    WASM parser on the code plus a `)` sentinel line with an empty formatting range, the fast path
 *    the server took for a valid script; and the ratio of the two medians.
 * 3. The same for the whole valid corpus as one script, for 1 MB, and for 100 KB with a syntax
 *    error on its last line (the parser's recovery path).
 * Everything runs in this process, one call at a time: the numbers are the parser's own cost,
 * without the lua-tools thread's message round trip.
 */
import { parseArgs } from 'node:util';
import { Config, formatCode, LuaVersion, OutputVerification, Range } from '@johnnymorganz/stylua';
import { buildValidScript, ownCorpus, sharedCorpus } from '@moonrelay/lua/luau/corpus.test-support.ts';
import { parseLuau } from '@moonrelay/lua/luau/parser.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const TARGET_100KB_MS = 50;
const PAST_ANY_OFFSET = 0xffff_ffff;

/** The StyLua check the server used before (its fast path for valid code): true when valid. */
function styluaCheck(code: string): boolean {
  const config = Config.new();
  config.syntax = LuaVersion.Luau;
  const lines = code.split('\n').length;
  try {
    formatCode(`${code}\n)`, config, Range.from_values(PAST_ANY_OFFSET, PAST_ANY_OFFSET), OutputVerification.None);
    return false;
  } catch (thrown) {
    return typeof thrown === 'string' && thrown.includes(`(${lines + 1}:1 to ${lines + 1}:2)`);
  }
}

function ourCheck(code: string): boolean {
  return parseLuau(code).diagnostics.length === 0;
}

/** Milliseconds of one call, checking its answer. */
function timeOnce(check: (code: string) => boolean, code: string, expectValid: boolean): number {
  const started = performance.now();
  const valid = check(code);
  const elapsed = performance.now() - started;
  if (valid !== expectValid) throw new Error(`the check said ${valid ? 'valid' : 'invalid'}, expected the opposite`);
  return elapsed;
}

/**
 * Medians of both checks, their calls interleaved so that a busy machine slows both alike. StyLua's
 * fast path only answers valid code: for invalid code only ours is timed.
 */
function timeBoth(code: string, runs: number, expectValid: boolean): { oursMs: number; styluaMs: number | null } {
  for (let i = 0; i < 3; i++) {
    ourCheck(code);
    if (expectValid) styluaCheck(code);
  }
  const ours: number[] = [];
  const stylua: number[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(timeOnce(ourCheck, code, expectValid));
    if (expectValid) stylua.push(timeOnce(styluaCheck, code, true));
  }
  return { oursMs: median(ours), styluaMs: expectValid ? median(stylua) : null };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '20' } } });
  const runs = positiveInteger('--runs', values.runs);

  // The shared corpus's real-world files when present, so numbers stay comparable between runs.
  const shared = sharedCorpus();
  const source = shared ?? ownCorpus();
  const hundredKb = buildValidScript(100 * 1024, source);
  const oneMb = buildValidScript(1024 * 1024, source);
  const corpus = shared ? shared.valid.map((entry) => `do\n${shared.read(entry.file)}\nend\n`).join('') : null;
  const invalid = `${hundredKb}\nlocal broken = = 1\n`;

  const scripts: [string, string, boolean][] = [
    [`${fmt(hundredKb.length / 1024, 0)} KB`, hundredKb, true],
    ...(corpus
      ? [[`whole valid corpus, ${fmt(corpus.length / 1024, 0)} KB`, corpus, true] as [string, string, boolean]]
      : []),
    [`${fmt(oneMb.length / 1024, 0)} KB`, oneMb, true],
    [`${fmt(invalid.length / 1024, 0)} KB, error at the end`, invalid, false],
  ];

  const results: { label: string; oursMs: number; styluaMs: number | null }[] = [];
  for (const [label, code, expectValid] of scripts) {
    // A megabyte takes a second per pair: fewer runs for the big scripts.
    const count = code.length > 512 * 1024 ? Math.min(runs, 7) : runs;
    results.push({ label, ...timeBoth(code, count, expectValid) });
  }

  for (const { label, oursMs, styluaMs } of results) {
    const ratio = styluaMs === null ? '' : `StyLua ${fmt(styluaMs, 1)} ms, ratio ${fmt(oursMs / styluaMs, 2)}x`;
    console.log(`check ${label.padEnd(34)} ${`${fmt(oursMs, 1)} ms`.padEnd(12)} ${ratio}`);
  }
  const main = results[0]!;
  const met = main.oursMs <= TARGET_100KB_MS;
  console.log(`target: 100 KB in <= ${TARGET_100KB_MS} ms (median of ${runs}): ${met ? 'met' : 'MISSED'}`);
  console.log(
    `RESULT ${JSON.stringify({
      bench: 'luau',
      check100KbMedianMs: main.oursMs,
      stylua100KbMedianMs: main.styluaMs,
      ratio: main.styluaMs ? main.oursMs / main.styluaMs : null,
      scripts: results,
    })}`,
  );
}
