import type { z } from 'zod';
import { printableText } from '@moonrelay/contract/common';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from './app-error.ts';

/** zod's own messages ("Invalid input: ...") get the field name in front; the contract's are kept as written. */
const GENERIC_MESSAGE = /^(Invalid input|Invalid option|Too (small|big)|Unrecognized key)/;

function describe(issue: z.core.$ZodIssue): { path: string; message: string } {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && path === '') return { path, message: ERRORS.bodyNotObject };
  const message = GENERIC_MESSAGE.test(issue.message) && path ? `${path}: ${issue.message}` : issue.message;
  return { path, message };
}

/**
 * Whether any text in the value (a string, or an object's key) might hold U+0000: the walk every
 * request takes, without building the paths only a refusal needs (a tenth of the cost of the walk below).
 */
function mayHoldNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        if (key.includes('\u0000')) return true;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * Where the first text holding U+0000 is (a string, or an object's key), as a dotted path ('' for
 * the value itself, a key's NUL shown as U+FFFD); undefined when there is none. Walks without
 * recursion, however deep the value.
 */
export function findNul(value: unknown): string | undefined {
  if (!mayHoldNul(value)) return undefined;
  // Depth first, in document order: each entry is a value, its path, and whether its key holds NUL.
  const pending: [unknown, string, boolean][] = [[value, '', false]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path, keyHasNul] = next;
    if (keyHasNul || (typeof item === 'string' && item.includes('\u0000'))) return path;
    if (item === null || typeof item !== 'object') continue;
    const entries: [string, unknown][] = Array.isArray(item)
      ? item.map((element, index) => [String(index), element])
      : Object.entries(item);
    for (const [key, child] of entries.reverse()) {
      const name = printableText(key);
      pending.push([child, path ? `${path}.${name}` : name, key.includes('\u0000')]);
    }
  }
  return undefined;
}

/**
 * Parses input against a contract schema; on failure a 400 whose error is the first problem found.
 * Text holding U+0000 is refused too, wherever it is: PostgreSQL cannot store it (a lookup or write
 * with it fails), and no field has a use for it. The parsed value is checked, so fields the contract
 * drops are no matter, and a field the contract cleans (a game's output) gets through.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map(describe);
    throw new AppError(400, issues[0]?.message ?? 'Invalid request', { issues });
  }
  const nulAt = findNul(result.data);
  if (nulAt !== undefined) {
    const message = nulAt ? `${nulAt}: ${ERRORS.textHasNul}` : ERRORS.textHasNul;
    throw new AppError(400, message, { issues: [{ path: nulAt, message }] });
  }
  return result.data;
}
