import type { NotificationEventKind } from '@moonrelay/contract/notifications';
import type { NotificationEvent } from './notification-event.ts';

/** Discord's limits (docs: "Discord webhooks" in the Roblox and catalogue reference). */
export const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

/** One colour per kind of event, so a channel can be read at a glance. */
export const DISCORD_COLOURS: Record<NotificationEventKind, number> = {
  'server.connected': 0x2ecc71,
  'server.disconnected': 0xe67e22,
  'console.error-burst': 0xd35400,
  'run.failed': 0xe74c3c,
  'schedule.failed': 0xc0392b,
  'mass-execution.finished': 0x3498db,
  'api-key.regenerated': 0x9b59b6,
  'sign-in.new-address': 0xf1c40f,
  'player.kicked': 0xe59866,
  'player.warned': 0xf4d03f,
  'player.banned': 0x922b21,
  'player.unbanned': 0x1abc9c,
  test: 0x95a5a6,
};

const ELLIPSIS = '…';

/** Cuts text to `max` characters (code points), ending in an ellipsis when anything was cut. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 0) return '';
  return chars.slice(0, max - 1).join('') + ELLIPSIS;
}

const length = (text: string) => Array.from(text).length;

/**
 * The message a Discord webhook receives: one embed, each part within its limit, and the whole
 * within 6,000 characters (fields go first, then the description is cut) — cut, never refused.
 */
export function discordMessage(event: NotificationEvent, publicUrl: string | undefined) {
  const title = cut(event.title, DISCORD_LIMITS.title);
  const footer = cut(`Moonrelay · ${event.kind} · ${event.id}`, DISCORD_LIMITS.footer);
  let fields = event.fields.slice(0, DISCORD_LIMITS.fields).map((field) => ({
    name: cut(field.name || '-', DISCORD_LIMITS.fieldName),
    value: cut(field.value || '-', DISCORD_LIMITS.fieldValue),
    inline: true,
  }));
  let description = cut(event.description, DISCORD_LIMITS.description);
  const total = () =>
    length(title) +
    length(footer) +
    length(description) +
    fields.reduce((n, f) => n + length(f.name) + length(f.value), 0);
  while (total() > DISCORD_LIMITS.total && fields.length > 0) fields = fields.slice(0, -1);
  if (total() > DISCORD_LIMITS.total)
    description = cut(description, DISCORD_LIMITS.total - (total() - length(description)));
  return {
    username: 'Moonrelay',
    embeds: [
      {
        title,
        description,
        ...(publicUrl ? { url: new URL(event.path, publicUrl).toString() } : {}),
        color: DISCORD_COLOURS[event.kind],
        timestamp: event.occurredAt,
        fields,
        footer: { text: footer },
      },
    ],
  };
}
