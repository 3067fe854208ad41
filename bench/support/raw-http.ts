/**
 * One game server's own HTTP/1.1 keep-alive connection, written straight on a TCP socket: the fleet
 * generator keeps up to 10,000 of them in one or two threads on a machine it shares with the server
 * it measures, and node:http's client (an Agent, a ClientRequest and an IncomingMessage per request)
 * spends more CPU per ping than this needs. One request at a time per connection, as a game sends
 * them. Answers with Content-Length or chunked bodies are read; `Connection: close` is honoured.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface RawAnswer {
  status: number;
  body: string;
  /** The Retry-After header, in seconds (NaN when absent or not a number of seconds). */
  retryAfterSeconds: number;
}

export class RawHttpError extends Error {
  constructor(
    readonly code: 'timeout' | 'closed' | 'malformed' | string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A socket left idle this long is replaced before the next request: the server closes idle
 * keep-alive sockets after 5 s, and a request written while it does so would fail (ECONNRESET).
 */
const IDLE_REUSE_MS = 4_000;
const HEADER_END = Buffer.from('\r\n\r\n');

interface Pending {
  resolve: (answer: RawAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class RawHttpConnection {
  private socket: net.Socket | null = null;
  private pending: Pending | null = null;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private lastUsedAt = 0;
  private readonly hostHeader: string;
  /** TCP connections opened, and how long each took to connect (ms), for the caller to take. */
  connects = 0;
  connectTimes: number[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.hostHeader = `${host}:${port}`;
  }

  get open(): boolean {
    return this.socket !== null;
  }

  request(method: string, path: string, body: string, timeoutMs: number): Promise<RawAnswer> {
    if (this.pending) return Promise.reject(new Error('one request at a time per connection'));
    const now = performance.now();
    if (this.socket && now - this.lastUsedAt > IDLE_REUSE_MS) this.drop();
    const socket = this.socket ?? this.connect();
    this.chunks = [];
    this.buffered = 0;
    return new Promise<RawAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new RawHttpError('timeout', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending = { resolve, reject, timer };
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\nConnection: keep-alive\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }

  close(): void {
    this.fail(new RawHttpError('closed', 'connection closed by the client'));
    this.drop();
  }

  private connect(): net.Socket {
    const startedAt = performance.now();
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    this.connects++;
    socket.once('connect', () => this.connectTimes.push(performance.now() - startedAt));
    socket.on('data', (chunk: Buffer) => {
      if (socket !== this.socket) return;
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.parse();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.fail(new RawHttpError(error.code ?? 'error', error.message));
    });
    socket.on('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.fail(new RawHttpError('closed', 'the server closed the connection before answering'));
    });
    this.socket = socket;
    return socket;
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
  }

  private fail(error: Error): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    // A connection that failed a request is not reused: what it holds is unknown.
    this.drop();
    pending.reject(error);
  }

  private parse(): void {
    const pending = this.pending;
    if (!pending) return; // Bytes nobody asked for: dropped with the socket on the next request.
    const data = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [data];
    const headerEnd = data.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = data.toString('latin1', 0, headerEnd);
    const lines = head.split('\r\n');
    const status = Number(lines[0]!.slice(9, 12));
    let contentLength = -1;
    let chunked = false;
    let close = false;
    let retryAfterSeconds = NaN;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') contentLength = Number(value);
      else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
      else if (name === 'connection') close = value.toLowerCase() === 'close';
      else if (name === 'retry-after' && /^\d+(\.\d+)?$/.test(value)) retryAfterSeconds = Number(value);
    }
    const bodyStart = headerEnd + 4;
    let body: string;
    if (chunked) {
      const decoded = decodeChunked(data, bodyStart);
      if (decoded === undefined) {
        this.fail(new RawHttpError('malformed', 'a bad chunk size'));
        return;
      }
      if (decoded === null) return;
      body = decoded;
    } else if (contentLength >= 0) {
      if (data.length < bodyStart + contentLength) return;
      body = data.toString('utf8', bodyStart, bodyStart + contentLength);
    } else {
      this.fail(new RawHttpError('malformed', `an answer without Content-Length or chunking (${lines[0]})`));
      return;
    }
    this.pending = null;
    this.chunks = [];
    this.buffered = 0;
    clearTimeout(pending.timer);
    this.lastUsedAt = performance.now();
    if (close) this.drop();
    pending.resolve({ status, body, retryAfterSeconds });
  }
}

/** The body of a complete chunked message starting at `start`; null while incomplete, undefined if malformed. */
function decodeChunked(data: Buffer, start: number): string | null | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) {
      // The last chunk, then (no trailers are sent here) the empty line.
      if (data.length < lineEnd + 4) return null;
      return Buffer.concat(parts).toString('utf8');
    }
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
