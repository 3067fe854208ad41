import crypto from 'node:crypto';
import {
  NOTIFICATION_DESTINATIONS_PER_USER,
  NOTIFICATION_ERRORS,
  type CreatedNotificationDestination,
  type CreateNotificationDestinationRequest,
  type NotificationAttempt,
  type NotificationDestination,
  type NotificationEvent as EventName,
  type UpdateNotificationDestinationRequest,
} from '@moonrelay/contract/notifications';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { checkDestinationUrl, type UrlRules } from './destination-urls.ts';
import type { Notifier } from './notifier.ts';
import { attemptsRepo, deliveriesRepo, destinationsRepo, type DestinationRow } from './notifications.repo.ts';

export const eventsOf = (row: DestinationRow) => row.events.split(',').filter(Boolean) as EventName[];

export function toDestination(row: DestinationRow): NotificationDestination {
  return {
    id: row.id,
    kind: row.kind as NotificationDestination['kind'],
    name: row.name,
    maskedUrl: row.maskedUrl,
    events: eventsOf(row),
    pausedReason: row.pausedAt ? row.pausedReason : null,
    pausedAt: row.pausedAt,
    failuresInRow: Number(row.failuresInRow),
    lastDeliveryAt: row.lastDeliveryAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A user's notification destinations: checked, sealed (URL and secret), masked when shown, at most
 * NOTIFICATION_DESTINATIONS_PER_USER. Nothing is stored when anything in a request is wrong.
 */
export function createNotificationsService(deps: { db: Db; box: SecretBox; urls: UrlRules; notifier: Notifier }) {
  const { db, box, urls, notifier } = deps;
  const notFound = () => new AppError(404, NOTIFICATION_ERRORS.notFound);

  const checkedUrl = (kind: NotificationDestination['kind'], raw: string) => {
    const checked = checkDestinationUrl(kind, raw, urls);
    if ('error' in checked) throw new AppError(400, checked.error);
    return checked;
  };

  const owned = async (userId: string, id: string) => {
    const row = await destinationsRepo.findForUser(db, userId, id);
    if (!row) throw notFound();
    return row;
  };

  return {
    async list(userId: string): Promise<NotificationDestination[]> {
      return (await destinationsRepo.listForUser(db, userId)).map(toDestination);
    },

    async create(
      userId: string,
      request: CreateNotificationDestinationRequest,
    ): Promise<CreatedNotificationDestination> {
      if (request.kind === 'discord' && request.secret !== undefined)
        throw new AppError(400, NOTIFICATION_ERRORS.secretNotForDiscord);
      const url = checkedUrl(request.kind, request.url);
      if ((await destinationsRepo.countForUser(db, userId)) >= NOTIFICATION_DESTINATIONS_PER_USER)
        throw new AppError(400, NOTIFICATION_ERRORS.tooMany);
      const secret =
        request.kind === 'webhook' ? (request.secret ?? `whsec_${crypto.randomBytes(24).toString('base64url')}`) : null;
      const now = nowIso();
      const row: DestinationRow = {
        id: crypto.randomUUID(),
        userId,
        kind: request.kind,
        name: request.name,
        urlSealed: box.seal(url.url),
        maskedUrl: url.masked,
        secretSealed: secret === null ? null : box.seal(secret),
        events: request.events.join(','),
        pausedAt: null,
        pausedReason: null,
        failuresInRow: 0,
        lastDeliveryAt: null,
        deliveringUntil: null,
        createdAt: now,
        updatedAt: now,
      };
      await destinationsRepo.insert(db, row);
      // The secret is shown this once (the user's own, or the one made here): afterwards only sealed.
      return { ...toDestination(row), secret };
    },

    async update(
      userId: string,
      id: string,
      request: UpdateNotificationDestinationRequest,
    ): Promise<NotificationDestination> {
      const row = await owned(userId, id);
      const url =
        request.url === undefined ? undefined : checkedUrl(row.kind as NotificationDestination['kind'], request.url);
      const patch: Partial<DestinationRow> = { updatedAt: nowIso() };
      if (request.name !== undefined) patch.name = request.name;
      if (request.events !== undefined) patch.events = request.events.join(',');
      if (url) Object.assign(patch, { urlSealed: box.seal(url.url), maskedUrl: url.masked });
      if (request.paused === true && !row.pausedAt)
        Object.assign(patch, { pausedAt: nowIso(), pausedReason: 'Paused by you' });
      // Resuming (or a new URL for a deleted webhook) starts afresh and delivers what waited.
      if (request.paused === false || (url && row.pausedAt && request.paused !== true))
        Object.assign(patch, { pausedAt: null, pausedReason: null, failuresInRow: 0 });
      await destinationsRepo.update(db, id, patch);
      if (patch.pausedAt === null) await notifier.wake(id);
      return toDestination((await destinationsRepo.find(db, id))!);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await destinationsRepo.remove(db, userId, id))) throw notFound();
    },

    /**
     * Queues a test event for the destination. A paused one is resumed first: a test is how a user
     * checks a fix (a new webhook, a receiver back up); if it still fails it is paused again.
     */
    async sendTest(userId: string, id: string): Promise<{ eventId: string }> {
      const row = await owned(userId, id);
      if (row.pausedAt)
        await destinationsRepo.update(db, id, {
          pausedAt: null,
          pausedReason: null,
          failuresInRow: 0,
          updatedAt: nowIso(),
        });
      const eventId = await notifier.sendTest(row);
      return { eventId };
    },

    /** Delivers an event of the log again under its own id, even one that was delivered. */
    async redeliver(userId: string, id: string, eventId: string): Promise<{ eventId: string }> {
      await owned(userId, id);
      const delivery = await deliveriesRepo.findByEvent(db, id, eventId);
      if (!delivery) throw new AppError(404, NOTIFICATION_ERRORS.eventNotFound);
      await notifier.redeliver(delivery);
      return { eventId };
    },

    async attempts(userId: string, id: string): Promise<NotificationAttempt[]> {
      await owned(userId, id);
      return (await attemptsRepo.listForDestination(db, id)).map((row) => ({
        id: row.id,
        eventId: row.eventId,
        event: row.event,
        at: row.at,
        status: row.status === null ? null : Number(row.status),
        error: row.error,
        latencyMs: Number(row.latencyMs),
        answer: row.answer,
      }));
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
