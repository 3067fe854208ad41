import dns from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { addressRefusal } from '../../security/blocked-addresses.ts';

/** Limits of one delivery request (docs/decisions/035-notifications.md). */
export const CONNECT_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;
export const ANSWER_READ_MAX_BYTES = 64 * 1024;

export interface SocketTarget {
  /** The resolved address that passed the check: what is dialled, never the name again. */
  address: string;
  port: number;
  /** The URL's host name, for TLS (SNI and the certificate check). */
  servername: string;
  tls: boolean;
  timeoutMs: number;
}

/** How outbound requests reach the network; tests give their own to see what would be dialled. */
export interface OutboundNetwork {
  resolve(host: string): Promise<string[]>;
  openSocket(target: SocketTarget): Promise<net.Socket>;
}

export interface OutboundAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** At most ANSWER_READ_MAX_BYTES of the body; the rest is never read. */
  body: Buffer;
}

/** A request that got no answer: a refused address, a bad URL, a timeout, a failed connection. */
export class OutboundError extends Error {}

export const systemNetwork: OutboundNetwork = {
  async resolve(host) {
    if (net.isIP(host)) return [host];
    const found = await dns.lookup(host, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  },
  openSocket(target) {
    return new Promise((resolve, reject) => {
      const socket = target.tls
        ? tls.connect({
            host: target.address,
            port: target.port,
            servername: net.isIP(target.servername) ? undefined : target.servername,
            ALPNProtocols: ['http/1.1'],
          })
        : net.connect({ host: target.address, port: target.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new OutboundError(`connect timed out after ${target.timeoutMs / 1000} s`));
      }, target.timeoutMs);
      socket.once(target.tls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(new OutboundError(`connection failed: ${error.message}`));
      });
    });
  },
};

/** The host as the allow-list and the resolver see it: lower case, IPv6 without brackets. */
export const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/**
 * Why a URL may not be used, before anything is resolved; null when it may. https, or http to a
 * host on the operator's allow-list; an address literal must not be a refused one unless allowed.
 */
export function urlRefusal(url: URL, allowedHosts: ReadonlySet<string>): string | null {
  const host = hostOf(url);
  if (allowedHosts.has(host))
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : `${url.protocol} is not http or https`;
  if (url.protocol !== 'https:') return `${url.protocol} is not https`;
  // The URL parser has already turned every IPv4 spelling (0x7f000001, 127.1) into dotted form.
  if (net.isIP(host)) return addressRefusal(host);
  // A name's trailing dot (the root) is still the same name: "localhost." is localhost.
  const name = host.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? `${host} names this host (loopback)` : null;
}

/** Whether a URL may be used at all before anything is resolved (see urlRefusal). */
export const urlAllowed = (url: URL, allowedHosts: ReadonlySet<string>) => urlRefusal(url, allowedHosts) === null;

/**
 * POSTs `body` to `url` without following redirects. The host is resolved and every address it
 * resolves to is checked (unless the host is on the allow-list) before one is dialled, so a name
 * that points at a private address is refused without a packet sent to it.
 */
export async function postOutbound(
  network: OutboundNetwork,
  allowedHosts: ReadonlySet<string>,
  request: { url: string; headers: Record<string, string>; body: string },
): Promise<OutboundAnswer> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new OutboundError('not a URL');
  }
  const refused = urlRefusal(url, allowedHosts);
  if (refused !== null) throw new OutboundError(`address not allowed: ${refused}`);
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await network.resolve(host);
  } catch (error) {
    throw new OutboundError(`could not resolve ${host}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new OutboundError(`could not resolve ${host}`);
  if (!allowedHosts.has(host)) {
    // Every address is checked, not only the one dialled: the order a resolver answers in can change.
    for (const address of addresses) {
      const refusal = addressRefusal(address);
      if (refusal !== null)
        throw new OutboundError(`address not allowed: ${host} resolves to a refused address (${refusal})`);
    }
  }
  const secure = url.protocol === 'https:';
  const started = Date.now();
  const socket = await network.openSocket({
    address: addresses[0]!,
    port: Number(url.port) || (secure ? 443 : 80),
    servername: host,
    tls: secure,
    timeoutMs: CONNECT_TIMEOUT_MS,
  });
  const left = Math.max(1, REQUEST_TIMEOUT_MS - (Date.now() - started));
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const payload = Buffer.from(request.body);
    const req = http.request({
      createConnection: () => socket,
      method: 'POST',
      path: url.pathname + url.search,
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': 'Moonrelay-Notifications',
        connection: 'close',
        ...request.headers,
      },
    });
    const timer = setTimeout(() => {
      req.destroy(new OutboundError(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`));
    }, left);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error instanceof OutboundError ? error : new OutboundError(`request failed: ${error.message}`));
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        socket.destroy();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).subarray(0, ANSWER_READ_MAX_BYTES),
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough read: the rest of a huge answer is never taken in.
        if (size >= ANSWER_READ_MAX_BYTES) {
          res.removeAllListeners('data');
          res.removeAllListeners('end');
          req.removeListener('error', fail);
          res.on('error', () => {});
          req.on('error', () => {});
          finish();
        }
      });
      res.on('end', finish);
      res.on('error', fail);
    });
    req.end(payload);
  });
}
