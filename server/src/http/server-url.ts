import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from './app-error.ts';

/**
 * The address games and people reach Moonrelay at, written into loader URLs and integration
 * scripts. With PUBLIC_URL it is that, whatever the request says. Without, the request's host is
 * taken only when it is well formed and named in PUBLIC_HOSTS (by default this machine's own names):
 * a forged Host header can neither break the script (a 500) nor point a game at someone else's server.
 */
export interface ServerUrlSource {
  /** `Host` (or X-Forwarded-Host behind a trusted proxy), and the protocol the request came in on. */
  host: string;
  protocol: string;
}

/** host, or [IPv6], then an optional port. */
const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?$/;

export function createServerUrl(options: { publicUrl: string | undefined; publicHosts: readonly string[] }) {
  const allowed = new Set(options.publicHosts.map((host) => host.toLowerCase()));
  return (request: ServerUrlSource): string => {
    if (options.publicUrl) return options.publicUrl;
    const match = HOST_PATTERN.exec(request.host);
    const port = match?.[2] === undefined ? undefined : Number(match[2]);
    if (!match || (port !== undefined && (port < 1 || port > 65535))) {
      throw new AppError(400, ERRORS.malformedHost);
    }
    if (!allowed.has(match[1]!.toLowerCase())) throw new AppError(400, ERRORS.hostNotServed);
    const protocol = request.protocol === 'https' ? 'https' : 'http';
    return `${protocol}://${match[1]!.toLowerCase()}${port === undefined ? '' : `:${port}`}`;
  };
}

export type ServerUrl = ReturnType<typeof createServerUrl>;
