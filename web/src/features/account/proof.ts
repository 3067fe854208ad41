import type { CurrentProof } from '@moonrelay/contract/two-factor';

/**
 * What Settings sends for its one "current password or code" field. Something shaped like a code
 * (six digits, or a recovery code's ten letters and digits) goes as both: a password may look like a
 * code, and the server takes either. Anything else is a password.
 */
export function proofOf(typed: string): CurrentProof {
  const trimmed = typed.trim();
  const codeLike = /^\d{6}$/.test(trimmed.replace(/\s/g, '')) || /^[0-9a-z]{5}[-\s]?[0-9a-z]{5}$/i.test(trimmed);
  return codeLike ? { password: typed, code: trimmed } : { password: typed };
}
