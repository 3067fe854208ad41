#!/usr/bin/env node
// moonrelay's command. A built bundle (dist/moonrelay.mjs: `npm run build --workspace cli`, made on
// `npm pack` too) starts fastest; in a checkout whose sources are newer than the bundle, or with no
// bundle, the TypeScript sources run through tsx, as the rest of the repository does.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(here, '..', 'dist', 'moonrelay.mjs');
const sources = [path.join(here, '..', 'src'), path.join(here, '..', '..', 'contract', 'src')];

/** The newest modification time of the files under `dir` (0 when there is no such folder). */
function newest(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let latest = 0;
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : fs.statSync(file).mtimeMs);
  }
  return latest;
}

let bundleTime = 0;
try {
  bundleTime = fs.statSync(bundle).mtimeMs;
} catch {
  // No bundle: the sources run.
}
const sourceTime = Math.max(...sources.map(newest));
if (bundleTime > 0 && bundleTime >= sourceTime) {
  await import(pathToFileURL(bundle).href);
} else if (sourceTime > 0) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(here, '..', 'src', 'main.ts')).href);
} else {
  process.stderr.write('moonrelay: neither dist/moonrelay.mjs nor the sources are here; reinstall moonrelay\n');
  process.exitCode = 2;
}
