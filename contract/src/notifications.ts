import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Notifications (docs/decisions/035-notifications.md): a user's destinations — Discord webhooks or
 * generic HTTPS webhooks signed with a secret — and the events each one hears about.
 */

/** The events a destination can choose. "test" is not among them: Send test always delivers. */
export const NOTIFICATION_EVENTS = [
  'server.connected',
  'server.disconnected',
  'console.error-burst',
  'run.failed',
  'schedule.failed',
  'mass-execution.finished',
  'api-key.regenerated',
  'sign-in.new-address',
  'player.kicked',
  'player.warned',
  'player.banned',
  'player.unbanned',
  'team.member-joined',
  'team.member-left',
  'team.member-changed',
] as const;
export const NotificationEventSchema = z.enum(NOTIFICATION_EVENTS, {
  error: `events: each must be one of ${NOTIFICATION_EVENTS.join(', ')}`,
});
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;
/** Every kind of event a delivery can carry. */
export type NotificationEventKind = NotificationEvent | 'test';

/** What each event means, in the words the Settings screen shows. */
export const NOTIFICATION_EVENT_LABELS: Record<NotificationEventKind, string> = {
  'server.connected': 'Game server connected',
  'server.disconnected': 'Game server disconnected',
  'console.error-burst': 'Errors in the console',
  'run.failed': 'Run failed',
  'schedule.failed': 'Scheduled run failed',
  'mass-execution.finished': 'Mass execution finished',
  'api-key.regenerated': 'API key regenerated',
  'sign-in.new-address': 'Sign-in from a new address',
  'player.kicked': 'Player kicked',
  'player.warned': 'Player warned',
  'player.banned': 'Player banned (or a ban changed)',
  'player.unbanned': 'Player unbanned',
  'team.member-joined': 'Someone joined the team',
  'team.member-left': 'Someone left or was removed from the team',
  'team.member-changed': "A member's role changed",
  test: 'Test event',
};

export const NOTIFICATION_DESTINATION_KINDS = ['discord', 'webhook'] as const;
export const NotificationDestinationKindSchema = z.enum(NOTIFICATION_DESTINATION_KINDS, {
  error: 'kind: must be discord or webhook',
});
export type NotificationDestinationKind = z.infer<typeof NotificationDestinationKindSchema>;

export const NOTIFICATION_DESTINATIONS_PER_USER = 20;
export const NOTIFICATION_NAME_MAX_LENGTH = 60;
export const NOTIFICATION_SECRET_MIN_LENGTH = 16;
/** Attempts kept (and shown) per destination. */
export const NOTIFICATION_ATTEMPTS_KEPT = 100;
/** Bytes of each answer kept in the delivery log. */
export const NOTIFICATION_ANSWER_KEPT_BYTES = 500;
/** Failures in a row (answers that will not change on a retry) after which a destination is paused. */
export const NOTIFICATION_FAILURES_TO_PAUSE = 20;

/** The headers of a generic webhook delivery. */
export const WEBHOOK_HEADERS = {
  signature: 'Moonrelay-Signature',
  event: 'Moonrelay-Event',
  eventId: 'Moonrelay-Event-Id',
} as const;

export const NOTIFICATION_ERRORS = {
  nameRequired: 'name: a destination needs a name',
  nameTooLong: `name: at most ${NOTIFICATION_NAME_MAX_LENGTH} characters`,
  eventsRequired: 'events: choose at least one event',
  eventsRepeated: 'events: each event once',
  discordUrlInvalid:
    'url: not a Discord webhook URL; copy it from Discord (Server Settings, Integrations, Webhooks): https://discord.com/api/webhooks/<id>/<token>',
  webhookUrlInvalid: 'url: must be an https:// URL',
  webhookUrlNotAllowed: 'url: this address is not allowed (loopback, private and cloud-metadata addresses are refused)',
  secretTooShort: `secret: at least ${NOTIFICATION_SECRET_MIN_LENGTH} characters`,
  secretNotForDiscord: 'secret: only generic webhooks are signed; a Discord webhook takes none',
  tooMany: `You already have ${NOTIFICATION_DESTINATIONS_PER_USER} destinations, the most allowed: delete one first`,
  updateEmpty: 'Nothing to update: send at least one field',
  notFound: 'Destination not found',
  eventNotFound: 'Event not found in this destination’s delivery log',
} as const;

const NameSchema = z
  .string({ error: NOTIFICATION_ERRORS.nameRequired })
  .trim()
  .min(1, NOTIFICATION_ERRORS.nameRequired)
  .max(NOTIFICATION_NAME_MAX_LENGTH, NOTIFICATION_ERRORS.nameTooLong);
const EventsSchema = z
  .array(NotificationEventSchema, { error: NOTIFICATION_ERRORS.eventsRequired })
  .min(1, NOTIFICATION_ERRORS.eventsRequired)
  .max(NOTIFICATION_EVENTS.length, NOTIFICATION_ERRORS.eventsRepeated)
  .refine((events) => new Set(events).size === events.length, NOTIFICATION_ERRORS.eventsRepeated);
const UrlSchema = z
  .string({ error: 'url: required' })
  .trim()
  .min(1, 'url: required')
  .max(2000, 'url: at most 2000 characters');
const SecretSchema = z
  .string()
  .min(NOTIFICATION_SECRET_MIN_LENGTH, NOTIFICATION_ERRORS.secretTooShort)
  .max(200, 'secret: at most 200 characters');

export const CreateNotificationDestinationRequestSchema = z
  .object({
    kind: NotificationDestinationKindSchema,
    name: NameSchema,
    url: UrlSchema,
    events: EventsSchema,
    /** Generic webhooks only: the signing secret; left out, Moonrelay makes one and answers it once. */
    secret: SecretSchema.optional(),
  })
  .meta({ id: 'CreateNotificationDestinationRequest' });
export type CreateNotificationDestinationRequest = z.infer<typeof CreateNotificationDestinationRequestSchema>;

/** Any part of a destination; what is not sent stays. `paused: false` resumes a paused destination. */
export const UpdateNotificationDestinationRequestSchema = z
  .object({
    name: NameSchema.optional(),
    url: UrlSchema.optional(),
    events: EventsSchema.optional(),
    paused: z.boolean().optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), NOTIFICATION_ERRORS.updateEmpty)
  .meta({ id: 'UpdateNotificationDestinationRequest' });
export type UpdateNotificationDestinationRequest = z.infer<typeof UpdateNotificationDestinationRequestSchema>;

export const NotificationDestinationSchema = z
  .object({
    id: z.string(),
    kind: NotificationDestinationKindSchema,
    name: z.string(),
    /** The URL with its secret parts hidden (a Discord URL's token, a webhook's path and query). */
    maskedUrl: z.string(),
    events: z.array(NotificationEventSchema),
    /** Why deliveries stopped (the webhook was deleted, too many failures in a row); null while active. */
    pausedReason: z.string().nullable(),
    pausedAt: IsoDateTimeSchema.nullable(),
    /** Deliveries that failed in a row since the last one that arrived. */
    failuresInRow: z.number().int(),
    lastDeliveryAt: IsoDateTimeSchema.nullable(),
    createdAt: IsoDateTimeSchema,
    updatedAt: IsoDateTimeSchema,
  })
  .meta({ id: 'NotificationDestination' });
export type NotificationDestination = z.infer<typeof NotificationDestinationSchema>;

/** A new destination; a generic webhook's signing secret is shown this once. */
export const CreatedNotificationDestinationSchema = NotificationDestinationSchema.extend({
  secret: z.string().nullable(),
}).meta({ id: 'CreatedNotificationDestination' });
export type CreatedNotificationDestination = z.infer<typeof CreatedNotificationDestinationSchema>;

export const NotificationDestinationListSchema = z
  .object({ destinations: z.array(NotificationDestinationSchema), limit: z.number().int() })
  .meta({ id: 'NotificationDestinationList' });
export type NotificationDestinationList = z.infer<typeof NotificationDestinationListSchema>;

export const NotificationDestinationParamsSchema = z.object({ id: z.string().min(1) });
export const NotificationEventParamsSchema = z.object({ id: z.string().min(1), eventId: z.string().min(1) });

/** One delivery attempt, as the delivery log shows it. */
export const NotificationAttemptSchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    event: z.string(),
    at: IsoDateTimeSchema,
    /** The answer's HTTP status; null when none came (refused address, timeout, connection failed). */
    status: z.number().int().nullable(),
    /** Why the attempt failed without an answer, or why the answer counts as a failure. */
    error: z.string().nullable(),
    latencyMs: z.number().int(),
    /** The first 500 bytes of the answer. */
    answer: z.string(),
  })
  .meta({ id: 'NotificationAttempt' });
export type NotificationAttempt = z.infer<typeof NotificationAttemptSchema>;

export const NotificationAttemptListSchema = z
  .object({ attempts: z.array(NotificationAttemptSchema) })
  .meta({ id: 'NotificationAttemptList' });
export type NotificationAttemptList = z.infer<typeof NotificationAttemptListSchema>;

/** A delivery queued (a test event, or an event sent again under its own id). */
export const QueuedNotificationSchema = z.object({ eventId: z.string() }).meta({ id: 'QueuedNotification' });
export type QueuedNotification = z.infer<typeof QueuedNotificationSchema>;

/**
 * What a generic webhook receives (POST, JSON), signed in Moonrelay-Signature: the OpenAPI
 * document's `webhooks` section and docs/webhooks.md describe it. The server builds it in
 * server/src/modules/notifications/notification-event.ts (webhookBody).
 */
export const WebhookDeliverySchema = z
  .object({
    id: z.string().meta({
      description:
        'The event: the same on every retry and on a redelivery (also in Moonrelay-Event-Id). Drop an event whose id you already handled.',
    }),
    deliveryId: z.string().meta({
      description: 'New on every attempt, so no two deliveries are signed alike (a repeated signature is a replay).',
    }),
    type: z
      .enum([...NOTIFICATION_EVENTS, 'test'])
      .meta({ description: 'What happened (also in Moonrelay-Event); "test" is Settings’ Send test.' }),
    occurredAt: IsoDateTimeSchema,
    title: z.string(),
    description: z.string(),
    url: z
      .string()
      .nullable()
      .meta({ description: 'The dashboard page it is about; null when the server has no PUBLIC_URL.' }),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The facts, by event: server and script ids, names, errors, counts.' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
