import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../src/modules/notifications/webhook-signature.ts';

export interface ReceivedDelivery {
  atMs: number;
  /** The path and query it was sent to. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

/** How old a signed timestamp a receiver accepts (Stripe's default tolerance). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * A receiver as the documentation tells webhook owners to write one: it checks Moonrelay-Signature
 * with its secret, refuses a timestamp outside the tolerance and a signature it has accepted before
 * (a replay), and answers 200. `failNext` answers the next requests with a status of the test's
 * choosing; `holdNext` keeps the next request unanswered until the test lets go.
 */
export function fakeWebhookReceiver() {
  let secret = '';
  const accepted: ReceivedDelivery[] = [];
  const all: ReceivedDelivery[] = [];
  const seen = new Set<string>();
  const failures: number[] = [];
  let holding: ((status: number | 'drop') => void) | null = null;
  let holdRequested = false;
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
      const body = Buffer.concat(chunks).toString('utf8');
      const record = (status: number) => {
        const delivery = { atMs: Date.now(), url: req.url ?? '', headers: req.headers, body, status };
        all.push(delivery);
        if (status === 200) accepted.push(delivery);
        changed();
      };
      const answer = (status: number, text: string) => {
        record(status);
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(text);
      };
      const header = String(req.headers['moonrelay-signature'] ?? '');
      const check = verifyWebhook(secret, body, header);
      if (!check.ok) return answer(400, 'bad signature');
      if (Math.abs(Date.now() / 1000 - check.timestamp) > SIGNATURE_TOLERANCE_SECONDS)
        return answer(400, 'timestamp too old');
      if (seen.has(header)) return answer(400, 'replayed');
      if (holdRequested) {
        holdRequested = false;
        holding = (status) => {
          holding = null;
          if (status === 'drop') {
            record(0);
            req.socket.destroy();
          } else answer(status, 'held');
        };
        changed();
        return;
      }
      const failure = failures.shift();
      if (failure !== undefined) return answer(failure, `failing on purpose with ${failure}`);
      seen.add(header);
      answer(200, 'ok: delivery accepted');
    });
  });

  return {
    accepted,
    all,
    setSecret: (value: string) => (secret = value),
    failNext: (...statuses: number[]) => failures.push(...statuses),
    holdNext: () => (holdRequested = true),
    get holding() {
      return holding !== null;
    },
    release: (status: number | 'drop') => holding?.(status),
    until: (ready: () => boolean) =>
      new Promise<void>((resolve) => {
        if (ready()) return resolve();
        waiters.push({ ready, resolve });
      }),
    /** Sends a captured delivery again, as an attacker replaying it would; answers the status. */
    replay: async (url: string, delivery: ReceivedDelivery) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'moonrelay-signature': String(delivery.headers['moonrelay-signature']),
        },
        body: delivery.body,
      });
      return response.status;
    },
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
