/**
 * Web bundle benchmark: `npm run bench -- web`.
 *
 * Builds the web app and reads Vite's manifest to measure what each screen downloads:
 *   - the sign-in screen's first load (the entry chunk, its static imports and their CSS), gzipped,
 *     against the 250 KB budget;
 *   - what signing in adds, and each lazily loaded page;
 *   - where the Ace editor ended up: it must be fetched only by screens with an editor.
 *   - the bytes on the wire for the sign-in screen and the editor: plain, and as the .gz and .br
 *     copies the build writes and the server sends by Accept-Encoding.
 * Sizes are deterministic for a given build, so no baseline run is needed; the exit code is 1 when
 * the budget is exceeded, Ace is reachable from a screen without an editor, or zod is in the
 * sign-in first load or the signed-in shell (decision 041). Only what a page
 * loads is counted: the manifest's chunks and their CSS, never the source maps beside them (a
 * browser fetches a map only when its developer tools are open); their total is printed apart.
 *
 * Then Lighthouse 12.2.3 runs on every screen with its mobile and desktop presets against the built
 * app served by a real Moonrelay server (bench/support/lighthouse.ts), signed in where the screen
 * needs it, each run a first visit (the browser's cache emptied before it, decision 041), and a
 * table of performance, accessibility and best practices is printed. The catalogue
 * screen reads a local stand-in for ScriptBlox (server/test/fake-catalogue.ts), so it is measured
 * with its cards and images as a user sees it.
 * `--no-lighthouse` measures the sizes only; `--screens=sign-in,editor` runs Lighthouse on those
 * screens only; `--presets=mobile` one preset only; `--reports=DIR` keeps each whole report there as
 * JSON. `--baseline=DIR` also serves another build's dist folder (say, one built from an earlier
 * commit and copied aside) and runs Lighthouse on both builds in turn for `--rounds=N` rounds
 * (3 by default), then prints each build's medians and their ratios (the score table shows the
 * first round). Each line also prints the metrics behind the performance score (FCP, LCP, TBT,
 * CLS, speed index).
 *
 * `--heavy` measures instead how the screens answer with a big game's data (bench/web-heavy.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { Script } from '@moonrelay/contract/scripts';
import {
  LIGHTHOUSE_SCREENS,
  lighthouseScreens,
  PRESETS,
  printScoreTable,
  type Preset,
  type Screen,
  type ScreenScores,
} from './support/lighthouse.ts';
import { fakeCatalogue } from '../server/test/fake-catalogue.ts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(repoRoot, 'web/dist');
const SIGN_IN_BUDGET_BYTES = 250 * 1024;
/** Ace's editor class name; present in Ace's core and in each of its extensions. */
const ACE_SIGNATURE = /ace_editor/;
/** The lazily loaded chunks that show code in Ace. */
const ACE_CHUNKS = new Set(['EditorPage', 'CodeViewer']);
/** zod's base class, in every build of it; it must not be on a first visit's path (decision 041). */
const ZOD_SIGNATURE = /\$ZodType/;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The files a chunk needs before it can run: itself, its static imports (recursively) and their CSS. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/**
 * What a first visit to the sign-in screen loads: every file index.html names (the entry, the
 * start-up stages it preloads, the stylesheet), each with its static imports and their CSS. The
 * entry starts the app through dynamic imports (web/src/start-app.ts), so its own static closure
 * alone would miss nearly all of it.
 */
function firstLoad(manifest: Manifest): Set<string> {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const named = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/(assets\/[^"]+)"/g)].map(
    (match) => match[1]!,
  );
  const files = new Set<string>();
  for (const file of named) {
    const key = Object.keys(manifest).find((candidate) => manifest[candidate]!.file === file);
    if (key) staticClosure(manifest, key, files);
    else files.add(file);
  }
  return files;
}

const total = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gzipSize(file), 0);

/**
 * What the server sends for these files (server/src/http/web-app.ts): the plain file, or the copy
 * the build wrote beside it (.gz, .br), falling back to the plain file where there is none.
 */
function onTheWire(files: Iterable<string>, suffix: '' | '.gz' | '.br'): number {
  let bytes = 0;
  for (const file of files) {
    const copy = path.join(dist, file + suffix);
    bytes += fs.statSync(fs.existsSync(copy) ? copy : path.join(dist, file)).size;
  }
  return bytes;
}
const carries = (signature: RegExp) => (file: string) =>
  file.endsWith('.js') && signature.test(fs.readFileSync(path.join(dist, file), 'utf8'));
const hasAce = carries(ACE_SIGNATURE);
const hasZod = carries(ZOD_SIGNATURE);

/** Source maps in the build: shipped for developer tools, never part of a page load. */
function sourceMapBytes(): { files: number; bytes: number } {
  const maps = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.map'));
  return {
    files: maps.length,
    bytes: maps.reduce((sum, file) => sum + fs.statSync(path.join(dist, 'assets', file)).size, 0),
  };
}

type BenchServers = ReturnType<typeof benchServers>;

/** A Moonrelay server over a build folder, with an admin whose saved script has run. */
async function serveBuild(servers: BenchServers, name: string, distDir: string, catalogueUrl: string) {
  const port = await freePort();
  const moonrelay = servers.start(name, 'npx', ['tsx', 'server/src/main.ts'], {
    // The catalogue screen reads a local stand-in for ScriptBlox: the machine may have no internet,
    // and a 502 there would be a console error Lighthouse counts against best practices.
    SCRIPTBLOX_API_URL: `${catalogueUrl}/api`,
    SCRIPTBLOX_SITE_URL: catalogueUrl,
    PORT: String(port),
    HOST,
    DATA_DIR: await servers.tempFolder(),
    WEB_DIST_DIR: distDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const base = `http://${HOST}:${port}`;
  await waitUntilReady(moonrelay, `${base}/api/openapi.json`);
  const { token, user } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
    email: 'lighthouse@example.com',
    username: 'lighthouse',
    name: 'Lighthouse Admin',
    password: 'correct horse battery',
  });
  const script = await call<Script>(base, 'POST', '/api/scripts', { name: 'Hello', code: 'print("hello")' }, token);
  await call(base, 'POST', `/api/scripts/${script.id}/execute`, { target: 'sandbox' }, token);
  return { base, session: { token, user } };
}

interface LighthouseOptions {
  screens: Screen[];
  presets: readonly Preset[];
  reportDir?: string;
  /** Another build's dist folder, measured in the same run, interleaved with this one. */
  baselineDist?: string;
  rounds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Lighthouse on every screen of the fresh build; with a baseline, on both builds in turn for each
 * round (baseline first on odd rounds, second on even ones, so a change in the machine's load
 * falls on both), then the medians and their ratios.
 */
async function runLighthouse(options: LighthouseOptions): Promise<void> {
  const servers = benchServers();
  const catalogue = fakeCatalogue({ localImages: true });
  try {
    const catalogueUrl = await catalogue.start();
    const current = await serveBuild(servers, 'moonrelay', dist, catalogueUrl);
    const baseline = options.baselineDist
      ? await serveBuild(servers, 'moonrelay-baseline', path.resolve(options.baselineDist), catalogueUrl)
      : null;
    const runs: { build: 'current' | 'baseline'; results: ScreenScores[] }[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const order = baseline
        ? round % 2
          ? (['current', 'baseline'] as const)
          : (['baseline', 'current'] as const)
        : (['current'] as const);
      for (const build of order) {
        const target = build === 'current' ? current : baseline!;
        console.log(`round ${round + 1}, ${build} build`);
        const reportDir = options.reportDir && path.join(options.reportDir, `${build}-${round + 1}`);
        if (reportDir) fs.mkdirSync(reportDir, { recursive: true });
        runs.push({
          build,
          results: await lighthouseScreens(target.base, options.screens, target.session, reportDir, options.presets),
        });
      }
    }
    const currentResults = runs.filter((run) => run.build === 'current').flatMap((run) => run.results);
    printScoreTable(currentResults);
    if (baseline) printComparison(runs);
    console.log(`RESULT ${JSON.stringify({ bench: 'web-lighthouse', lighthouse: '12.2.3', runs })}`);
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
    await catalogue.stop();
  }
}

/** Per screen and preset: the median performance score and metrics of each build, and current / baseline. */
function printComparison(runs: { build: 'current' | 'baseline'; results: ScreenScores[] }[]): void {
  const pick = (build: string, screen: string, preset: Preset) =>
    runs
      .filter((run) => run.build === build)
      .flatMap((run) => run.results)
      .filter((result) => result.screen === screen && result.preset === preset);
  const keys = [...new Set(runs.flatMap((run) => run.results.map((result) => `${result.screen}|${result.preset}`)))];
  console.log('');
  console.log('medians, baseline -> current (current / baseline)');
  for (const key of keys) {
    const [screen, preset] = key.split('|') as [string, Preset];
    const before = pick('baseline', screen, preset);
    const after = pick('current', screen, preset);
    const cells = [
      ['performance', (r: ScreenScores) => r.scores.performance ?? 0],
      ...(['fcp', 'lcp', 'tbt', 'si'] as const).map(
        (metric) => [metric, (r: ScreenScores) => r.metrics[metric] ?? 0] as const,
      ),
    ] as const;
    const text = cells
      .map(([label, value]) => {
        const a = median(before.map(value));
        const b = median(after.map(value));
        return `${label} ${Math.round(a)} -> ${Math.round(b)} (${a ? (b / a).toFixed(2) : '-'})`;
      })
      .join(', ');
    console.log(`  ${preset.padEnd(7)} ${screen.padEnd(12)} ${text}`);
  }
}

export async function run(args: string[] = []): Promise<void> {
  // With the heavy account: how the screens answer, not what they download (bench/web-heavy.ts).
  if (args.includes('--heavy')) return (await import('./web-heavy.ts')).run(args);
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the manifest');

  const signIn = firstLoad(manifest);
  if (!signIn.has(manifest[entryKey]!.file)) throw new Error('index.html does not load the entry chunk');
  const signInJs = total([...signIn].filter((f) => f.endsWith('.js')));
  const signInCss = total([...signIn].filter((f) => f.endsWith('.css')));
  const rows: [string, number, string][] = [
    ['sign-in first load (JS + CSS)', signInJs + signInCss, `budget ${kb(SIGN_IN_BUDGET_BYTES)}`],
  ];

  // Every lazily loaded chunk: what it adds on top of the first load.
  const lazyKeys = Object.keys(manifest).filter((key) =>
    Object.values(manifest).some((c) => c.dynamicImports?.includes(key)),
  );
  const problems: string[] = [];
  // Ace may live in the chunks that show code with it (the editor page, the catalogue's read-only
  // viewer) and in chunks only those load (Ace's extensions); never in anything else.
  const aceKeys = new Set(lazyKeys.filter((key) => ACE_CHUNKS.has(manifest[key]!.name ?? '')));
  const loadedByEditor = (key: string) =>
    Object.entries(manifest).some(([importer, chunk]) => chunk.dynamicImports?.includes(key) && aceKeys.has(importer));
  for (const key of lazyKeys) {
    const added = [...staticClosure(manifest, key)].filter((file) => !signIn.has(file));
    // The start-up stages: dynamic imports of the entry, all of them preloaded by index.html.
    if (added.length === 0) continue;
    const name = manifest[key]!.name ?? key;
    const carriesAce = added.some(hasAce);
    rows.push([`+ ${name}`, total(added), carriesAce ? 'includes Ace' : '']);
    if (carriesAce && !aceKeys.has(key) && !loadedByEditor(key))
      problems.push(`Ace is loaded by ${name}, which has no editor`);
  }
  if ([...signIn].some(hasAce)) problems.push('Ace is part of the sign-in first load');
  // zod loads with the form checks and the screens that parse, not before the first paint.
  if ([...signIn].some(hasZod)) problems.push('zod is part of the sign-in first load');
  const shellKey = lazyKeys.find((key) => manifest[key]!.name === 'SignedInApp');
  if (shellKey && [...staticClosure(manifest, shellKey)].some(hasZod))
    problems.push('zod is part of the signed-in shell every signed-in screen waits for');
  if (signInJs + signInCss > SIGN_IN_BUDGET_BYTES)
    problems.push(`sign-in first load ${kb(signInJs + signInCss)} is over budget`);

  // Bytes on the wire for a first visit (index.html included), as served plain, gzip and brotli.
  const editorKey = lazyKeys.find((key) => manifest[key]!.name === 'EditorPage');
  const editor = editorKey ? new Set([...signIn, ...staticClosure(manifest, editorKey)]) : signIn;
  const wire = (files: Set<string>) => {
    const all = ['index.html', ...files];
    return { identity: onTheWire(all, ''), gzip: onTheWire(all, '.gz'), br: onTheWire(all, '.br') };
  };
  const wireRows = { 'sign-in screen': wire(signIn), 'sign-in + script editor': wire(editor) };
  console.log('bytes on the wire, first visit (uncompressed -> gzip / brotli)');
  for (const [label, sizes] of Object.entries(wireRows))
    console.log(`${label.padEnd(40)} ${kb(sizes.identity).padStart(10)} -> ${kb(sizes.gzip)} / ${kb(sizes.br)}`);
  console.log('');
  console.log('gzipped sizes (level 9)');
  for (const [label, bytes, note] of rows) console.log(`${label.padEnd(40)} ${kb(bytes).padStart(10)}  ${note}`);
  console.log(
    `RESULT ${JSON.stringify({ bench: 'web', signInJsBytes: signInJs, signInCssBytes: signInCss, budgetBytes: SIGN_IN_BUDGET_BYTES, wire: wireRows, chunks: rows.slice(1).map(([label, bytes, note]) => ({ chunk: label.slice(2), bytes, ace: note === 'includes Ace' })) })}`,
  );
  const maps = sourceMapBytes();
  console.log(`source maps (not loaded by pages, not counted above): ${maps.files} files, ${kb(maps.bytes)}`);
  if (problems.length) throw new Error(problems.join('; '));
  if (args.includes('--no-lighthouse')) return;
  // `--screens=sign-in,editor` measures some screens only, to compare a change on the screens it touches.
  const only = args
    .find((arg) => arg.startsWith('--screens='))
    ?.slice('--screens='.length)
    .split(',');
  const unknown = only?.filter((name) => !LIGHTHOUSE_SCREENS.some((screen) => screen.name === name)) ?? [];
  if (unknown.length) throw new Error(`unknown screens: ${unknown.join(', ')}`);
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const presets = (option('presets')?.split(',') ?? PRESETS) as Preset[];
  if (presets.some((preset) => !PRESETS.includes(preset))) throw new Error(`presets are ${PRESETS.join(', ')}`);
  const baselineDist = option('baseline');
  const rounds = Number(option('rounds') ?? (baselineDist ? 3 : 1));
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number from 1');
  await runLighthouse({
    screens: only ? LIGHTHOUSE_SCREENS.filter((screen) => only.includes(screen.name)) : LIGHTHOUSE_SCREENS,
    presets,
    reportDir: option('reports'),
    baselineDist,
    rounds,
  });
}
