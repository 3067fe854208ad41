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

/** SQLSTATE classes and codes of a lost or refused PostgreSQL connection (admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception...). */
const PG_UNAVAILABLE = /^(57P0[1-3]|08\d{3})$/;
const NODE_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** pg's own messages for a connection that died or never came (they carry no code). */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether a failed query failed because the database could not be reached (rather than because of
 * the query): the request is then answered 503 with Retry-After, not 500, since nothing of it
 * happened and trying again shortly is the right thing for a client to do. SQLite's busy lock
 * counts too.
 */
export function databaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (PG_UNAVAILABLE.test(code) || NODE_CONNECTION_CODES.has(code) || code === 'SQLITE_BUSY')
  )
    return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message);
}
