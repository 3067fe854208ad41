import crypto from 'node:crypto';
import type { Endpoint } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../db/database.ts';
import { isoPlus, nowIso } from '../db/time.ts';
import { AppError } from './app-error.ts';
import type { EndpointHandler, EndpointInput } from './endpoint.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x20-\x7e]{1,200}$/;
/**
 * A key still pending after this long belongs to a request that never finished (its instance died
 * mid-request; no call here runs for more than the 30 s game wait). Whether its work happened is
 * unknown, so it is not run again; a retry is told so once, instead of "in progress" for 24 hours.
 */
export const IDEMPOTENCY_ABANDONED_MS = 2 * 60 * 1000;

/**
 * `Idempotency-Key` on the calls that enqueue work (docs/operations.md). The key's row is inserted
 * before the work runs, so of two requests with the same key (a retry racing the original) exactly
 * one inserts it and runs; the other answers the first answer once there is one, or 409 while the
 * first is still running. A key used with a different request answers 422. Only answers the handler
 * gave are kept: a refusal (an error) removes the row, so a retry may try again.
 */
export function createIdempotency(db: Db) {
  const fingerprint = (input: EndpointInput<Endpoint>) =>
    crypto
      .createHash('sha256')
      .update(`${input.ctx.method} ${input.ctx.path}\n${JSON.stringify(input.body ?? null)}`)
      .digest('hex');

  /** Inserts the key's row; answers false when the principal already has one for this key (kept 24 h). */
  async function reserve(principal: string, key: string, print: string): Promise<boolean> {
    const now = nowIso();
    // An expired row the pruner has not reached yet is no longer the key's.
    await db
      .deleteFrom('idempotencyKeys')
      .where('principal', '=', principal)
      .where('key', '=', key)
      .where('createdAt', '<=', isoPlus(now, -IDEMPOTENCY_KEY_TTL_MS))
      .execute();
    const inserted = await db
      .insertInto('idempotencyKeys')
      .values({
        principal,
        key,
        fingerprint: print,
        status: 'pending',
        responseStatus: null,
        responseBody: null,
        createdAt: now,
      })
      .onConflict((oc) => oc.columns(['principal', 'key']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  return {
    /** The endpoint's handler, answering repeats of a key from the first answer. */
    wrap<E extends Endpoint>(endpoint: E, handler: EndpointHandler<E>): EndpointHandler<E> {
      if (!endpoint.idempotent) throw new Error(`${endpoint.path} does not document Idempotency-Key`);
      return async (input) => {
        const key = input.ctx.get('Idempotency-Key');
        if (!key || !input.principal) return handler(input);
        if (!KEY_PATTERN.test(key)) throw new AppError(400, ERRORS.idempotencyKeyInvalid);
        const principal = input.principal.userId;
        const print = fingerprint(input as unknown as EndpointInput<Endpoint>);
        if (!(await reserve(principal, key, print))) {
          const first = await db
            .selectFrom('idempotencyKeys')
            .selectAll()
            .where('principal', '=', principal)
            .where('key', '=', key)
            .executeTakeFirst();
          if (first && first.fingerprint !== print) throw new AppError(422, ERRORS.idempotencyKeyReused);
          if (first?.status === 'done' && first.responseBody !== null) {
            input.ctx.set('Idempotent-Replayed', 'true');
            return JSON.parse(first.responseBody) as Awaited<ReturnType<EndpointHandler<E>>>;
          }
          if (first && first.createdAt <= isoPlus(nowIso(), -IDEMPOTENCY_ABANDONED_MS)) {
            throw new AppError(409, ERRORS.idempotencyKeyAbandoned);
          }
          // Still running (or removed between the two reads, by a refusal): the caller tries again shortly.
          throw new AppError(409, ERRORS.idempotencyKeyInProgress, { headers: { 'Retry-After': '1' } });
        }
        let answer: Awaited<ReturnType<EndpointHandler<E>>>;
        try {
          answer = await handler(input);
        } catch (error) {
          await db.deleteFrom('idempotencyKeys').where('principal', '=', principal).where('key', '=', key).execute();
          throw error;
        }
        await db
          .updateTable('idempotencyKeys')
          .set({ status: 'done', responseStatus: 200, responseBody: JSON.stringify(answer) })
          .where('principal', '=', principal)
          .where('key', '=', key)
          .execute();
        return answer;
      };
    },

    /** Forgets keys older than 24 hours (runs in the background). */
    async prune(): Promise<void> {
      await db
        .deleteFrom('idempotencyKeys')
        .where('createdAt', '<=', isoPlus(nowIso(), -IDEMPOTENCY_KEY_TTL_MS))
        .execute();
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
