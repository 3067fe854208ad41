import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message a fake webhook took (or refused). */
export interface DiscordHit {
  webhookId: string;
  atMs: number;
  status: number;
  // The message as sent.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

const LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
};

/** Discord's 400 for a message over its limits, checked as Discord documents them. */
function overLimits(body: {
  content?: string;
  embeds?: {
    title?: string;
    description?: string;
    fields?: { name: string; value: string }[];
    footer?: { text: string };
  }[];
}): boolean {
  const len = (text: string | undefined) => Array.from(text ?? '').length;
  if (len(body.content) > 2000 || (body.embeds?.length ?? 0) > 10) return true;
  let total = 0;
  for (const embed of body.embeds ?? []) {
    if (len(embed.title) > LIMITS.title || len(embed.description) > LIMITS.description) return true;
    if ((embed.fields?.length ?? 0) > LIMITS.fields || len(embed.footer?.text) > LIMITS.footer) return true;
    for (const field of embed.fields ?? [])
      if (len(field.name) > LIMITS.fieldName || len(field.value) > LIMITS.fieldValue) return true;
    total += len(embed.title) + len(embed.description) + len(embed.footer?.text);
    total += (embed.fields ?? []).reduce((n, f) => n + len(f.name) + len(f.value), 0);
  }
  return total > LIMITS.total;
}

/**
 * A local stand-in for Discord's webhook endpoint, answering as Discord documents: 204 with the
 * X-RateLimit-* headers of a per-webhook bucket (`limit` messages per `windowMs`), 429 with
 * retry_after when a message comes while the bucket is empty, 404 for a deleted webhook, 400 for a
 * message over the size limits. `forced429` answers the next messages 429 whatever the bucket says.
 */
export function fakeDiscord(options: { limit?: number; windowMs?: number } = {}) {
  const limit = options.limit ?? 5;
  const windowMs = options.windowMs ?? 2000;
  const hits: DiscordHit[] = [];
  const deleted = new Set<string>();
  const forced = new Map<string, number[]>();
  const buckets = new Map<string, { used: number; resetAtMs: number }>();
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  const changed = () => {
    for (const waiter of [...waiters])
      if (waiter.ready()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
      const webhookId = match?.[1] ?? '';
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Discord answers 400 to a body that is not JSON.
      }
      const answer = (status: number, headers: Record<string, string>, json?: unknown) => {
        hits.push({ webhookId, atMs: now, status, body });
        res.writeHead(status, json === undefined ? headers : { ...headers, 'content-type': 'application/json' });
        res.end(json === undefined ? undefined : JSON.stringify(json));
        changed();
      };
      if (!match || req.method !== 'POST') return answer(405, {}, { message: '405: Method Not Allowed', code: 0 });
      if (deleted.has(webhookId)) return answer(404, {}, { message: 'Unknown Webhook', code: 10015 });
      let bucket = buckets.get(webhookId);
      if (!bucket || bucket.resetAtMs <= now) buckets.set(webhookId, (bucket = { used: 0, resetAtMs: now + windowMs }));
      const resetAfter = ((bucket.resetAtMs - now) / 1000).toFixed(3);
      const forcedWait = forced.get(webhookId)?.shift();
      if (forcedWait !== undefined || bucket.used >= limit) {
        const retryAfter = forcedWait ?? (bucket.resetAtMs - now) / 1000;
        return answer(
          429,
          { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
          { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        );
      }
      if (!body || overLimits(body as never)) return answer(400, {}, { message: 'Invalid Form Body', code: 50035 });
      bucket.used++;
      answer(204, {
        'x-ratelimit-bucket': `bucket-${webhookId}`,
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(limit - bucket.used),
        'x-ratelimit-reset': String(bucket.resetAtMs / 1000),
        'x-ratelimit-reset-after': resetAfter,
      });
    });
  });

  return {
    hits,
    /** The webhook is deleted on Discord's side: it answers 404 from now on. */
    remove: (webhookId: string) => deleted.add(webhookId),
    /** The next messages to this webhook are answered 429 with these retry_after seconds. */
    force429: (webhookId: string, ...retryAfterSeconds: number[]) => forced.set(webhookId, retryAfterSeconds),
    /** Resolves once `ready` holds (checked after each message it answers). */
    until: (ready: () => boolean) =>
      new Promise<void>((resolve) => {
        if (ready()) return resolve();
        waiters.push({ ready, resolve });
      }),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
