/**
 * Which unique column a failed insert collided with, on either engine, or undefined when the error
 * is something else. Lets a service answer 409 for a race that slipped past its own check.
 */
export function uniqueViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, constraint } = error as { code?: string; message?: string; constraint?: string };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // "UNIQUE constraint failed: users.email"
    return message?.split(':')[1]?.trim().split('.')[1];
  }
  if (code === '23505' && constraint) {
    // "users_email_key" -> "email"
    return constraint.replace(/^[a-z]+_/, '').replace(/_key$/, '');
  }
  return undefined;
}
