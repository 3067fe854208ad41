/**
 * Moonrelay's import rules: they keep the layers of the server and the features of the web app
 * apart, so a change to one module or screen cannot quietly reach into another.
 *
 * - no-import-cycle: a file must not reach itself again through relative imports. A cycle makes
 *   start-up order matter (a module can run before the one it needs has finished loading) and
 *   means neither side can be read, tested or moved alone.
 * - no-restricted-paths: the HTTP stack, the database, the platform, security and the settings sit
 *   below the product's modules; they must not import them (types included), or every module
 *   becomes a dependency of everything.
 * - no-cross-feature: a screen of the web app does not import another screen's internals; what
 *   two screens share lives in web/src/components or web/src/lib.
 *
 * Only relative imports are followed (the workspaces' own `@moonrelay/…` imports point at the
 * contract, which imports nothing of theirs). The linted file's imports come from the syntax tree
 * ESLint already has. The files it reaches are read from disk once per process with TypeScript's
 * import scanner (a parse of every file would cost seconds on each `npm run lint`), and read again
 * when they change on disk, so an editor's long-lived ESLint stays right.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repository's root: zone and feature paths in the options are relative to it. */
const ROOT = path.resolve(import.meta.dirname, '..');

const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];
/** A `.js` specifier may name the TypeScript file it is compiled from. */
const SOURCE_FOR = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };

/**
 * Files read from disk are checked for changes when linting resumes after this long a pause (an
 * editor's long-lived ESLint), and at least every ten times this while linting goes on (a run).
 */
const RECHECK_MS = 1000;

const repoPath = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * Whether the import whose specifier starts at `quote` brings in types only, judged from the text
 * between its `import`/`export` keyword and the specifier: `import type …`, `export type …`,
 * braces that hold only `type` names, or a `declare module` augmentation. Anything else (a default
 * or namespace import, a dynamic import, text this does not recognise) counts as a value import,
 * so a doubt shows a cycle rather than hiding one. The linted file is judged from its syntax tree.
 */
function typeOnlyAt(text, quote) {
  const before = text.slice(Math.max(0, quote - 2000), quote);
  // `declare module './x.ts' { … }` adds to another file's types: a type-only dependency.
  if (/\bdeclare\s+module\s*$/.test(before)) return true;
  const keyword = /\b(?:import|export)\b/g;
  let last = -1;
  for (let found = keyword.exec(before); found; found = keyword.exec(before)) last = found.index;
  if (last < 0) return false;
  const head = before.slice(last).trimEnd();
  if (/^(?:import|export)\s+type\s+(?!from\b)[^()]*\bfrom$/.test(head)) return true;
  const named = /^(?:import|export)\s*\{([^{}()]*)\}\s*from$/.exec(head);
  if (!named) return false;
  const names = named[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => /^type\s/.test(name));
}

/**
 * The imports in a file's text, found by TypeScript's import scanner (static imports, re-exports,
 * `require()`, dynamic `import()`), with whether each brings in types only.
 */
export function importsInText(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((entry) => ({ specifier: entry.fileName, typeOnly: typeOnlyAt(text, entry.pos) }));
}

/** Whether every named binding is `type` (an empty list imports nothing but still runs the file). */
const allTypes = (specifiers, kind) =>
  specifiers.length > 0 && specifiers.every((specifier) => specifier[kind] === 'type');

const literalOf = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null);

/**
 * Visitors that gather the linted file's imports from ESLint's syntax tree, with where each is:
 * static imports and re-exports, `import x = require()`, dynamic `import('…')` calls and
 * `import('…')` types. `done` gets them at the end of the file.
 */
function gatherImports(done) {
  const found = [];
  const add = (specifier, typeOnly, node) => {
    if (specifier !== null) found.push({ specifier, typeOnly, start: node.range[0], end: node.range[1] });
  };
  return {
    ImportDeclaration(node) {
      const typeOnly = node.importKind === 'type' || allTypes(node.specifiers, 'importKind');
      add(literalOf(node.source), typeOnly, node);
    },
    ExportNamedDeclaration(node) {
      if (node.source)
        add(literalOf(node.source), node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind'), node);
    },
    ExportAllDeclaration(node) {
      add(literalOf(node.source), node.exportKind === 'type', node);
    },
    TSImportEqualsDeclaration(node) {
      if (node.moduleReference.type === 'TSExternalModuleReference') {
        add(literalOf(node.moduleReference.expression), node.importKind === 'type', node);
      }
    },
    ImportExpression(node) {
      add(literalOf(node.source), false, node);
    },
    TSModuleDeclaration(node) {
      // `declare module './x.ts' { … }` adds to another file's types: a type-only dependency.
      if (node.id.type === 'Literal') add(literalOf(node.id), true, node);
    },
    TSImportType(node) {
      const argument = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
      add(literalOf(argument), true, node);
    },
    'Program:exit'() {
      done(found);
    },
  };
}

/** Which paths are files; forgotten at each check for changes, so a file created since is found. */
const isFileCache = new Map();
function isFile(file) {
  let known = isFileCache.get(file);
  if (known === undefined) {
    try {
      known = fs.statSync(file).isFile();
    } catch {
      known = false; // missing: the import is broken, which the type check reports, not this rule
    }
    isFileCache.set(file, known);
  }
  return known;
}

/**
 * Where a relative specifier points: the file it names if there is one, else the bare path (so a
 * restricted path is still caught on an import TypeScript cannot resolve). Null for a package.
 */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
    return null;
  }
  const bare = path.resolve(path.dirname(fromFile), specifier.replace(/[?#].*$/, ''));
  const extension = path.extname(bare);
  const candidates = [bare];
  for (const source of SOURCE_FOR[extension] ?? []) candidates.push(bare.slice(0, -extension.length) + source);
  for (const code of CODE_EXTENSIONS) candidates.push(bare + code);
  for (const code of CODE_EXTENSIONS) candidates.push(path.join(bare, 'index' + code));
  const file = candidates.find(isFile);
  return { path: file ?? bare, exists: !!file };
}

const isCode = (file) => CODE_EXTENSIONS.includes(path.extname(file));

/**
 * The module graph: each file's relative imports, read once and kept for the process. Which files
 * reach each other (the strongly connected components) is kept beside it, so checking a file costs
 * a look-up rather than a walk of everything it imports. Every file in the graph has everything it
 * imports in the graph too; so files added later cannot join an earlier component, and only a file
 * whose imports changed makes the components be worked out again.
 */
const graph = new Map();
/** Files in the order they came into the graph, for the components to take up the new ones. */
const added = [];
/** Counts changes to the imports of files already in the graph. */
let changes = 0;
let lastLint = 0;
let lastSweep = 0;

/** The imports that point at files of this repository, with the file each names. */
function edgesFrom(file, imports) {
  const edges = [];
  for (const entry of imports) {
    const target = resolveImport(file, entry.specifier);
    if (target) edges.push({ ...entry, target: target.path, resolved: target.exists });
  }
  return edges;
}

function statOf(file) {
  try {
    return fs.statSync(file);
  } catch {
    return null; // gone: the file imports nothing any more
  }
}

/** A file's imports as it is on disk. */
function readNode(file) {
  const stat = statOf(file);
  let edges = [];
  if (stat && isCode(file)) {
    try {
      edges = edgesFrom(file, importsInText(fs.readFileSync(file, 'utf8')));
    } catch {
      edges = []; // unreadable: nothing to follow
    }
  }
  return { edges, mtimeMs: stat?.mtimeMs, size: stat?.size };
}

/** Puts a file's imports in the graph, with everything they reach that is not there yet. */
function setNode(file, node) {
  if (graph.has(file)) changes++;
  else added.push(file);
  graph.set(file, node);
  const pending = [node];
  while (pending.length) {
    for (const edge of pending.pop().edges) {
      if (edge.resolved && !graph.has(edge.target)) {
        const read = readNode(edge.target);
        graph.set(edge.target, read);
        added.push(edge.target);
        pending.push(read);
      }
    }
  }
}

/**
 * Re-reads the files changed on disk, and those whose missing import has since appeared. Done when
 * linting resumes after a pause, and now and then during a long run: not for every linted file,
 * which would stat the whole graph hundreds of times in one `npm run lint`.
 */
function sweepChanged() {
  const now = Date.now();
  const resumed = now - lastLint > RECHECK_MS;
  lastLint = now;
  if (!resumed && now - lastSweep < 10 * RECHECK_MS) return;
  lastSweep = now;
  isFileCache.clear();
  for (const [file, node] of graph) {
    const stat = statOf(file);
    const same = stat ? node.mtimeMs === stat.mtimeMs && node.size === stat.size : node.mtimeMs === undefined;
    const appeared = node.edges.some((edge) => !edge.resolved && resolveImport(file, edge.specifier).exists);
    if (!same || appeared) setNode(file, readNode(file));
  }
}

const edgeKeys = (edges) =>
  edges
    .map((edge) => `${edge.target}\0${edge.typeOnly}\0${edge.resolved}`)
    .sort()
    .join('\n');

/**
 * Puts the linted file's imports, as its syntax tree has them (an editor's unsaved buffer
 * included), in the graph in place of what was read from disk, if they differ.
 */
function lintedNode(file, edges) {
  const node = graph.get(file);
  if (node && edgeKeys(node.edges) === edgeKeys(edges)) return;
  const stat = node ?? statOf(file);
  setNode(file, { edges, mtimeMs: stat?.mtimeMs, size: stat?.size });
}

const follows = (edge, skipTypes) => edge.resolved && !(skipTypes && edge.typeOnly);

/**
 * Each file's strongly connected component, named by one of its files (Tarjan's, without
 * recursion). It carries on from where it stopped for files added since, and starts over after a
 * file's imports changed.
 */
function components(skipTypes) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  let taken = 0;
  const enter = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    onStack.add(file);
    const targets = graph.get(file).edges.filter((edge) => follows(edge, skipTypes) && graph.has(edge.target));
    return { file, targets: targets.map((edge) => edge.target), at: 0 };
  };
  const visit = (root) => {
    const work = [enter(root)];
    while (work.length) {
      const frame = work[work.length - 1];
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++];
        if (!index.has(target)) work.push(enter(target));
        else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file), index.get(target)));
        continue;
      }
      work.pop();
      if (low.get(frame.file) === index.get(frame.file)) {
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.set(member, frame.file);
        } while (member !== frame.file);
      }
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file), low.get(frame.file)));
    }
  };
  return {
    changes,
    component,
    update() {
      for (; taken < added.length; taken++) if (!index.has(added[taken])) visit(added[taken]);
      return component;
    },
  };
}

const componentsBy = new Map();
function componentOf(skipTypes) {
  let state = componentsBy.get(skipTypes);
  if (state?.changes !== changes) {
    state = components(skipTypes);
    componentsBy.set(skipTypes, state);
  }
  return state.update();
}

/** The shortest chain of imports from `start` back to `goal`, walking only inside their component. */
function chainBack(start, goal, skipTypes, component) {
  const inside = component.get(goal);
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head];
    for (const edge of graph.get(file).edges) {
      if (!follows(edge, skipTypes) || cameFrom.has(edge.target) || component.get(edge.target) !== inside) continue;
      cameFrom.set(edge.target, file);
      if (edge.target === goal) {
        const chain = [goal];
        for (let at = file; at !== null; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(edge.target);
    }
  }
  return [start, goal]; // not reached: the component says there is a way
}

const locOf = (sourceCode, edge) => ({
  start: sourceCode.getLocFromIndex(edge.start),
  end: sourceCode.getLocFromIndex(edge.end),
});

/** The linted file's real path, or null for text that has none (stdin). */
function lintedFile(context) {
  const file = context.physicalFilename ?? context.filename;
  return path.isAbsolute(file) && isFile(file) ? path.resolve(file) : null;
}

const startsWithAny = (file, prefixes) =>
  prefixes.some((prefix) => {
    const absolute = path.resolve(ROOT, prefix);
    return prefix.endsWith('/') ? file.startsWith(absolute + path.sep) : file === absolute;
  });

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbids relative imports that lead back to the importing file.' },
    schema: [
      {
        type: 'object',
        properties: {
          ignoreTypeImports: {
            type: 'boolean',
            description: 'Type-only imports are erased before the code runs; with true they make no cycle.',
          },
        },
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'Import cycle: {{chain}}' },
  },
  create(context) {
    const file = lintedFile(context);
    if (!file) return {};
    const skipTypes = context.options[0]?.ignoreTypeImports ?? false;
    const { sourceCode } = context;
    return gatherImports((imports) => {
      const edges = edgesFrom(file, imports);
      sweepChanged();
      lintedNode(file, edges);
      const component = componentOf(skipTypes);
      const seen = new Set();
      for (const edge of edges) {
        if (!follows(edge, skipTypes) || seen.has(edge.target)) continue;
        seen.add(edge.target);
        // A file naming itself (`declare module './this.ts'` adding to its own types) is no cycle.
        if (edge.target === file || component.get(edge.target) !== component.get(file)) continue;
        const back = chainBack(edge.target, file, skipTypes, component);
        context.report({
          loc: locOf(sourceCode, edge),
          messageId: 'cycle',
          data: { chain: [file, ...back].map(repoPath).join(' -> ') },
        });
      }
    });
  },
};

const noRestrictedPaths = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbids files in a zone from importing files under the paths it must not use.' },
    schema: [
      {
        type: 'object',
        properties: {
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                // Paths from the repository root: a folder ends with '/', anything else is one file.
                target: { type: 'array', items: { type: 'string' }, minItems: 1 },
                from: { type: 'array', items: { type: 'string' }, minItems: 1 },
                message: { type: 'string' },
              },
              required: ['target', 'from'],
              additionalProperties: false,
            },
          },
        },
        required: ['zones'],
        additionalProperties: false,
      },
    ],
    messages: { restricted: '{{file}} must not import {{target}}{{why}}' },
  },
  create(context) {
    const file = lintedFile(context);
    if (!file) return {};
    const zones = (context.options[0]?.zones ?? []).filter((zone) => startsWithAny(file, zone.target));
    if (!zones.length) return {};
    const { sourceCode } = context;
    return gatherImports((imports) => {
      for (const edge of edgesFrom(file, imports)) {
        const zone = zones.find((candidate) => startsWithAny(edge.target, candidate.from));
        if (!zone) continue;
        context.report({
          loc: locOf(sourceCode, edge),
          messageId: 'restricted',
          data: { file: repoPath(file), target: repoPath(edge.target), why: zone.message ? `: ${zone.message}` : '' },
        });
      }
    });
  },
};

const noCrossFeature = {
  meta: {
    type: 'problem',
    docs: { description: "Forbids a feature folder's files from importing another feature's files." },
    schema: [
      {
        type: 'object',
        properties: {
          features: { type: 'string', description: 'The folder holding one folder per feature, from the root.' },
          message: { type: 'string' },
        },
        required: ['features'],
        additionalProperties: false,
      },
    ],
    messages: { crossFeature: "Feature '{{from}}' must not import feature '{{to}}' ({{target}}){{why}}" },
  },
  create(context) {
    const file = lintedFile(context);
    if (!file) return {};
    const { features, message } = context.options[0];
    const featuresDir = path.resolve(ROOT, features);
    const featureOf = (someFile) => {
      const inside = path.relative(featuresDir, someFile).split(path.sep);
      return inside.length > 1 && inside[0] !== '..' ? inside[0] : null;
    };
    const own = featureOf(file);
    if (!own) return {};
    const { sourceCode } = context;
    return gatherImports((imports) => {
      for (const edge of edgesFrom(file, imports)) {
        const other = featureOf(edge.target);
        if (!other || other === own) continue;
        context.report({
          loc: locOf(sourceCode, edge),
          messageId: 'crossFeature',
          data: { from: own, to: other, target: repoPath(edge.target), why: message ? `: ${message}` : '' },
        });
      }
    });
  },
};

export default {
  meta: { name: 'moonrelay-imports' },
  rules: {
    'no-import-cycle': noImportCycle,
    'no-restricted-paths': noRestrictedPaths,
    'no-cross-feature': noCrossFeature,
  },
};
