import crypto from 'node:crypto';
import {
  NOTIFICATION_ANSWER_KEPT_BYTES,
  NOTIFICATION_FAILURES_TO_PAUSE,
  WEBHOOK_HEADERS,
} from '@moonrelay/contract/notifications';
import type { Db } from '../../db/database.ts';
import { createCommitGroup } from './commit-group.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import type { Logger } from '../../logger.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { createOutbox, leaseThrough, type HeldKey } from '../../platform/outbox.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { discordMessage } from './discord-message.ts';
import { webhookBody, type NotificationEvent } from './notification-event.ts';
import { NOTIFICATION_DELIVERY_JOB, nextSeq } from './notifier.ts';
import {
  attemptsRepo,
  deliveriesRepo,
  destinationsRepo,
  type AttemptRow,
  type DeliveryRow,
  type DestinationRow,
} from './notifications.repo.ts';
import { OutboundError, postOutbound, type OutboundAnswer, type OutboundNetwork } from './outbound-http.ts';
import { createDeliveryLane } from './delivery-lane.ts';
import { signWebhook } from './webhook-signature.ts';

/** Retries stop this long after the event happened; the event is then given up on. */
export const RETRY_FOR_MS = 24 * 3600_000;
/** Destinations the embedded mode delivers to at once (each one's events go one at a time). */
const EMBEDDED_DELIVERIES_AT_ONCE = 64;
/** The longest wait between two tries of one event. */
const RETRY_MAX_WAIT_MS = 3600_000;
/** A wait up to this long (a rate limit's reset) is waited out in the job; a longer one by the sweep. */
const WAIT_IN_JOB_MAX_MS = 10_000;

export interface DeliveryOptions {
  db: Db;
  jobs: JobQueue;
  box: SecretBox;
  logger: Logger;
  network: OutboundNetwork;
  allowedHosts: ReadonlySet<string>;
  publicUrl: string | undefined;
  /** The first retry's wait; each next one doubles (with jitter). */
  retryBaseMs: number;
  /**
   * How long one process holds a destination's events (scale-out), renewed as it goes; a process
   * that died holding it is taken over once this has passed (NOTIFY_LEASE_MS).
   */
  leaseMs: number;
  /**
   * This process is the only one delivering (the embedded mode): a destination's order is kept by
   * this process alone, without a lease in the database (a write, and a disk flush, fewer per event).
   */
  onlyProcess: boolean;
}

/** What an answer means for the event and the destination. */
type Outcome =
  | { kind: 'delivered'; waitMs: number }
  | { kind: 'rate-limited'; waitMs: number }
  | { kind: 'gone'; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'retry'; reason: string };

const header = (answer: OutboundAnswer, name: string) => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Seconds as Discord sends them (fractions allowed) to milliseconds; null when absent or not a number. */
const seconds = (value: unknown) => {
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(number) && number >= 0 ? Math.ceil(number * 1000) : null;
};

/**
 * Reads an answer. Rate limits come from the answer itself — X-RateLimit-Remaining and
 * -Reset-After on every answer, retry_after (or Retry-After) on a 429 — never from numbers of our own.
 */
export function outcomeOf(answer: OutboundAnswer): Outcome {
  const { status } = answer;
  if (status >= 200 && status < 300) {
    const remaining = header(answer, 'x-ratelimit-remaining');
    const resetAfter = seconds(header(answer, 'x-ratelimit-reset-after'));
    return { kind: 'delivered', waitMs: remaining === '0' && resetAfter !== null ? resetAfter : 0 };
  }
  if (status === 429) {
    let retryAfter: number | null = null;
    try {
      retryAfter = seconds((JSON.parse(answer.body.toString('utf8')) as { retry_after?: unknown }).retry_after);
    } catch {
      // Not JSON: the header says it.
    }
    retryAfter ??= seconds(header(answer, 'retry-after')) ?? seconds(header(answer, 'x-ratelimit-reset-after'));
    return { kind: 'rate-limited', waitMs: retryAfter ?? 1000 };
  }
  if (status === 404 || status === 410)
    return { kind: 'gone', reason: `The webhook answered ${status}: it was deleted` };
  if (status === 408 || status >= 500) return { kind: 'retry', reason: `answered ${status}` };
  // Other answers (400 and the like, redirects) will not change by sending the same event again.
  return { kind: 'refused', reason: `answered ${status}` };
}

/** Exponential backoff with full jitter between half and all of the step. */
export function backoffMs(baseMs: number, attempts: number): number {
  const step = Math.min(RETRY_MAX_WAIT_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (Math.random() * step) / 2);
}

/**
 * Delivers each destination's events one at a time, oldest first, at least once: an event leaves
 * the outbox only after an answer says it arrived, it was refused for good, or 24 hours of retries
 * passed. Runs as a job (in this process, or a worker in the scale-out mode); the sweep hands out
 * destinations whose next try came due.
 */
export function createDelivery(options: DeliveryOptions) {
  const { db, jobs, box, logger } = options;
  const writes = createCommitGroup(db);

  function request(
    destination: DestinationRow,
    event: NotificationEvent,
  ): { url: string; headers: Record<string, string>; body: string } {
    const url = box.open(destination.urlSealed);
    if (destination.kind === 'discord')
      return { url, headers: {}, body: JSON.stringify(discordMessage(event, options.publicUrl)) };
    const body = JSON.stringify(webhookBody(event, options.publicUrl, crypto.randomUUID()));
    const secret = box.open(destination.secretSealed!);
    return {
      url,
      body,
      headers: {
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, body, Math.floor(Date.now() / 1000)),
        [WEBHOOK_HEADERS.event]: event.kind,
        [WEBHOOK_HEADERS.eventId]: event.id,
      },
    };
  }

  async function attempt(
    destination: DestinationRow,
    delivery: DeliveryRow,
  ): Promise<{ outcome: Outcome; row: AttemptRow }> {
    const event = JSON.parse(delivery.payload) as NotificationEvent;
    const started = performance.now();
    let outcome: Outcome;
    let status: number | null = null;
    let answerText = '';
    let error: string | null = null;
    try {
      const answer = await postOutbound(options.network, options.allowedHosts, request(destination, event));
      status = answer.status;
      answerText = answer.body.subarray(0, NOTIFICATION_ANSWER_KEPT_BYTES).toString('utf8');
      outcome = outcomeOf(answer);
      if (outcome.kind !== 'delivered' && outcome.kind !== 'rate-limited') error = outcome.reason;
    } catch (thrown) {
      if (!(thrown instanceof OutboundError)) throw thrown;
      error = thrown.message;
      // A refused address is refused again next time; a timeout or a dropped connection may pass.
      outcome =
        thrown.message.startsWith('address not allowed') || thrown.message === 'not a URL'
          ? { kind: 'refused', reason: thrown.message }
          : { kind: 'retry', reason: thrown.message };
    }
    const row: AttemptRow = {
      id: crypto.randomUUID(),
      destinationId: destination.id,
      eventId: delivery.eventId,
      event: delivery.event,
      at: nowIso(),
      seq: nextSeq(),
      status,
      error,
      latencyMs: Math.round(performance.now() - started),
      answer: answerText,
    };
    return { outcome, row };
  }

  const pause = (trx: Db, destination: DestinationRow, reason: string) =>
    destinationsRepo.update(trx, destination.id, { pausedAt: nowIso(), pausedReason: reason, updatedAt: nowIso() });

  /** An event failed for good: the destination's run of failures grows, and at 20 it is paused. */
  async function failed(trx: Db, destination: DestinationRow, delivery: DeliveryRow, reason: string) {
    await deliveriesRepo.update(trx, delivery.id, { state: 'failed', attempts: delivery.attempts + 1 });
    const failures = Number(destination.failuresInRow) + 1;
    await destinationsRepo.update(trx, destination.id, { failuresInRow: failures });
    if (failures >= NOTIFICATION_FAILURES_TO_PAUSE)
      await pause(trx, destination, `${failures} deliveries in a row failed (the last ${reason})`);
  }

  /**
   * Records an attempt and what it means, in one transaction: the delivery log's entry, the event's
   * state and the destination's. Answers whether delivering goes on.
   */
  async function settle(destination: DestinationRow, delivery: DeliveryRow, outcome: Outcome, row: AttemptRow) {
    return writes.run(async (trx) => {
      await attemptsRepo.insert(trx, row);
      switch (outcome.kind) {
        case 'delivered': {
          const now = nowIso();
          await deliveriesRepo.update(trx, delivery.id, {
            state: 'delivered',
            attempts: delivery.attempts + 1,
            deliveredAt: now,
          });
          await destinationsRepo.update(trx, destination.id, { failuresInRow: 0, lastDeliveryAt: now });
          // The bucket is empty: the next event waits for its reset.
          if (outcome.waitMs > 0) {
            const next = await deliveriesRepo.nextPending(trx, destination.id);
            if (next) await deliveriesRepo.update(trx, next.id, { nextAttemptAt: isoPlus(now, outcome.waitMs) });
          }
          return true;
        }
        case 'rate-limited':
          await deliveriesRepo.update(trx, delivery.id, { nextAttemptAt: isoPlus(nowIso(), outcome.waitMs) });
          return true;
        case 'gone':
          await pause(trx, destination, outcome.reason);
          return false;
        case 'refused':
          await failed(trx, destination, delivery, outcome.reason);
          return true;
        case 'retry': {
          const attempts = delivery.attempts + 1;
          const next = Date.now() + backoffMs(options.retryBaseMs, attempts);
          if (next > Date.parse(delivery.occurredAt) + RETRY_FOR_MS) {
            await failed(trx, destination, delivery, `${outcome.reason}; retried for 24 hours`);
            return true;
          }
          // Later events wait behind this one, so they still arrive in order.
          await deliveriesRepo.update(trx, delivery.id, { attempts, nextAttemptAt: new Date(next).toISOString() });
          return true;
        }
      }
    });
  }

  /** Delivers what is due for one destination, oldest first, while this process holds it. */
  async function deliverDue(destinationId: string, held: HeldKey): Promise<void> {
    for (;;) {
      const destination = await destinationsRepo.find(db, destinationId);
      if (!destination || destination.pausedAt) return;
      const delivery = await deliveriesRepo.nextPending(db, destinationId);
      if (!delivery) return;
      const waitMs = Date.parse(delivery.nextAttemptAt) - Date.now();
      if (waitMs > WAIT_IN_JOB_MAX_MS) return;
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      // An attempt takes at most 20 s (connect, answer, a wait): well within what is left of the lease.
      await held.keep();
      const { outcome, row } = await attempt(destination, delivery);
      if (!(await settle(destination, delivery, outcome, row))) return;
    }
  }

  const outbox = createOutbox({
    job: NOTIFICATION_DELIVERY_JOB,
    keyField: 'destinationId',
    jobs,
    onlyProcess: options.onlyProcess,
    lease: leaseThrough(destinationsRepo.lease, (work) => writes.run(work)),
    leaseMs: options.leaseMs,
    round: deliverDue,
    due: (now, limit) => deliveriesRepo.dueDestinations(db, now, limit),
    /*
     * The embedded mode's own lane: the outbox is the durable part, so a destination's turn needs no
     * queue of its own, and deliveries never take the job queue's slots from runs.
     */
    lane: () =>
      createDeliveryLane({
        concurrency: EMBEDDED_DELIVERIES_AT_ONCE,
        onError: (error) => logger.error({ err: error }, 'notifications: a delivery round failed'),
      }),
  });

  return {
    run: outbox.run,
    /** Asks for what is due for a destination to be delivered: in this process's lane, or as a queued job. */
    hand: outbox.hand,
    /** Lets the deliveries under way finish (the embedded mode); what waits stays in the outbox. */
    close: () => outbox.close(),
    /** Hands out destinations whose next try came due (retries, rate limits, a process that died). */
    async sweep(): Promise<void> {
      await outbox.sweep();
      await deliveriesRepo.pruneDone(db, new Date(Date.now() - 7 * 24 * 3600_000).toISOString());
    },
    logger,
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
