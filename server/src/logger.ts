import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths that never reach a log line: credentials in headers and bodies. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  // Parser errors carry the raw request body, which may hold a password.
  'err.body',
  'password',
  '*.password',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'key',
  '*.key',
];

export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY && level !== 'silent';
  return pino({
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
}
