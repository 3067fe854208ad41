import type { HtmlTagDescriptor, Plugin } from 'vite';

export interface BundleChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** A chunk and everything it imports statically, recursively, by file name. */
function staticClosure(bundle: Record<string, BundleChunk>, fileName: string, into: Set<string>): Set<string> {
  const chunk = bundle[fileName];
  if (!chunk || chunk.type !== 'chunk' || into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of chunk.imports ?? []) staticClosure(bundle, imported, into);
  return into;
}

/**
 * The chunks the entry's stages need that Vite does not link already: every chunk the entry imports
 * dynamically, with their static imports, less the entry's own static closure.
 */
export function startPreloads(bundle: Record<string, BundleChunk>, entry: BundleChunk): string[] {
  const linked = staticClosure(bundle, entry.fileName, new Set());
  const stages = new Set<string>();
  for (const dynamic of entry.dynamicImports ?? []) staticClosure(bundle, dynamic, stages);
  return [...stages].filter((file) => !linked.has(file));
}

/**
 * Adds a `<link rel="modulepreload">` to index.html for every chunk the entry imports dynamically,
 * with their own imports. The entry starts the app in stages (src/start-app.ts), one dynamic import
 * each, so that each is evaluated in a task of its own; without these links the browser would learn
 * of each stage's chunks only when the stage before it had run, a round trip per stage. Vite links
 * the entry's static imports itself; only the entry's own dynamic imports are added here, never the
 * app's lazy screens (preloading those took the first screen's bandwidth, decision 041).
 */
export function preloadStart(): Plugin {
  let base = '/';
  return {
    name: 'moonrelay-preload-start',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle as Record<string, BundleChunk> | undefined;
        const entry = context.chunk as BundleChunk | undefined;
        if (!bundle || !entry) return [];
        return startPreloads(bundle, entry).map((file): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
          injectTo: 'head',
        }));
      },
    },
  };
}
