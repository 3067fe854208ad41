import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A multi-row INSERT that does not go through writeInChunks works in every test with a handful of
 * rows and fails in production past the engine's parameter bound (see bulk-writes.ts). So the
 * server's source is read with TypeScript's checker: an insert's `.values(...)` given an array must
 * be given the chunk of a writeInChunks call, and anything else is named here by file and line.
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_SRC = path.join(REPO, 'server/src');
const HELPER = path.join(SERVER_SRC, 'db/bulk-writes.ts');

/** A file of its own, read with the real ones, so each run also shows the check still catches a bypass. */
const PROBE = path.join(SERVER_SRC, 'db/bulk-writes.probe.ts');
const PROBE_TEXT = `import type { Insertable } from 'kysely';
import type { Db } from './database.ts';
import type { RecoveryCodesTable } from './schema.ts';
import { writeInChunks } from './bulk-writes.ts';
type Row = Insertable<RecoveryCodesTable>;
export async function probe(db: Db, rows: Row[], row: Row) {
  await db.insertInto('recoveryCodes').values(row).execute();
  await db.insertInto('recoveryCodes').values(rows).execute();
  await writeInChunks(db, rows, (chunk) => db.insertInto('recoveryCodes').values(chunk).execute());
  await writeInChunks(db, rows, () => db.insertInto('recoveryCodes').values(rows).execute());
  await db.insertInto('recoveryCodes').values(rows.slice(0, 10)).execute();
  await writeInChunks(db, rows, (chunk) => db.insertInto('recoveryCodes').values(chunk!).execute());
}
`;

function serverSources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...serverSources(file));
    else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) found.push(file);
  }
  return found;
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(REPO, 'tsconfig.json'), ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  // The server's own settings less the web app's (DOM, JSX), whose types would only slow this down.
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    { ...config.config.compilerOptions, lib: ['ES2023'], jsx: undefined },
    REPO,
  );
  if (errors.length) throw new Error(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n'));
  return { ...options, noEmit: true };
}

const isArrayType = (checker: ts.TypeChecker, type: ts.Type): boolean =>
  type.isUnion()
    ? type.types.some((member) => isArrayType(checker, member))
    : checker.isArrayType(type) || checker.isTupleType(type);

/** Whether `expression` (casts aside) is the chunk a writeInChunks call hands its callback. */
function isChunkOfHelper(checker: ts.TypeChecker, expression: ts.Expression): boolean {
  let arg = expression;
  while (ts.isParenthesizedExpression(arg) || ts.isNonNullExpression(arg) || ts.isAsExpression(arg))
    arg = arg.expression;
  if (!ts.isIdentifier(arg)) return false;
  const declaration = checker.getSymbolAtLocation(arg)?.valueDeclaration;
  if (!declaration || !ts.isParameter(declaration)) return false;
  const callback = declaration.parent;
  if (!ts.isArrowFunction(callback) && !ts.isFunctionExpression(callback)) return false;
  if (callback.parameters[0] !== declaration) return false;
  const call = callback.parent;
  if (!ts.isCallExpression(call) || !call.arguments.includes(callback)) return false;
  let callee = checker.getSymbolAtLocation(call.expression);
  if (callee && callee.flags & ts.SymbolFlags.Alias) callee = checker.getAliasedSymbol(callee);
  return (
    callee?.getName() === 'writeInChunks' &&
    (callee.declarations ?? []).some((d) => path.resolve(d.getSourceFile().fileName) === HELPER)
  );
}

/** `file:line: .values(...)` for each insert given an array not through writeInChunks. */
function bypasses(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`not compiled: ${file}`);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'values' &&
      node.arguments.length === 1 &&
      checker.getTypeAtLocation(node.expression.expression).getSymbol()?.getName() === 'InsertQueryBuilder'
    ) {
      const arg = node.arguments[0]!;
      if (isArrayType(checker, checker.getTypeAtLocation(arg)) && !isChunkOfHelper(checker, arg)) {
        const line = source.getLineAndCharacterOfPosition(node.expression.name.getStart(source)).line + 1;
        const text = arg.getText(source).replace(/\s+/g, ' ');
        found.push(`server/src/${path.relative(SERVER_SRC, file)}:${line}: .values(${text.slice(0, 60)})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('multi-row writes go through writeInChunks', () => {
  // Loading the server's sources and their libraries' types takes seconds, more on a busy machine.
  it('no insert in server/src writes an array of rows in one statement', { timeout: 120_000 }, () => {
    // Only files with an insert's values: the checker then loads what they import, not the whole server.
    const files = serverSources(SERVER_SRC).filter((file) => fs.readFileSync(file, 'utf8').includes('.values('));
    expect(files.length).toBeGreaterThan(10);

    const options = compilerOptions();
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, language, ...rest) =>
      path.resolve(name) === PROBE
        ? ts.createSourceFile(name, PROBE_TEXT, language)
        : getSourceFile.call(host, name, language, ...rest);
    host.fileExists = (name) => path.resolve(name) === PROBE || fileExists.call(host, name);
    host.readFile = (name) => (path.resolve(name) === PROBE ? PROBE_TEXT : readFile.call(host, name));
    const program = ts.createProgram([...files, PROBE], options, host);

    // The check itself: of the probe's six inserts, the three bypasses are caught.
    expect(bypasses(program, PROBE)).toEqual([
      'server/src/db/bulk-writes.probe.ts:8: .values(rows)',
      'server/src/db/bulk-writes.probe.ts:10: .values(rows)',
      'server/src/db/bulk-writes.probe.ts:11: .values(rows.slice(0, 10))',
    ]);

    expect(files.flatMap((file) => bypasses(program, file))).toEqual([]);
  });
});
