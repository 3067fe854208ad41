import type { z } from 'zod';
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

/** Parses input against a contract schema; on failure a 400 whose error is the first problem found. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map(describe);
  throw new AppError(400, issues[0]?.message ?? 'Invalid request', { issues });
}
