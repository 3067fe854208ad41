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
  'team.member-joined': 0x27ae60,
  'team.member-left': 0x7f8c8d,
  'team.member-changed': 0x5dade2,
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

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text as Discord shows it literally, not as markdown. Every text of an event goes through this: a
 * console line, a script's or server's name, a player's name or display name, a ban reason, Roblox's
 * error are the game's or a player's words (a line `[Verify your account](https://evil.example)`
 * must not arrive as a link in the owner's channel), and Moonrelay's own words use no markdown.
 * Discord reads a backslash before any punctuation as "this character, literally", so:
 * - anywhere: `\ * _ ~ ` | [ ] <` (bold, italics, underline, strikethrough, code, spoilers, masked
 *   links; `<` starts every mention, channel, role, timestamp, custom emoji and `<url>`);
 * - at the start of a line: `# > - +` and the `.`/`)` of `1.` (headings, `-#` subtext, block quotes,
 *   lists), which only mean something there;
 * - `@everyone` and `@here` get a zero-width space after the `@`: with `allowed_mentions` they would
 *   not ping, but should not even look like a mention;
 * - links: Discord makes a bare `https://…` clickable by itself, and a plain URL has nothing the
 *   escapes above touch, so a zero-width space goes between `:` and `//` (of any scheme). The link
 *   reads the same, is not clickable, and copied and pasted it is not a working URL. (Inline code
 *   would also stop the link, but nothing inside code can be escaped, so a backtick in the text
 *   would end the code early and let the rest be read as markdown again.)
 * Generic webhooks carry JSON, not markdown: they get the text as it was (webhookBody).
 */
export function escapeDiscordMarkdown(text: string): string {
  return text
    .replace(/[\\*_~`|[\]<]/g, '\\$&')
    .replace(/^([ \t]*)([#>+-])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)([.)])/gm, '$1\\$2')
    .replace(/:\/\//g, `:${ZERO_WIDTH_SPACE}//`)
    .replace(/@(everyone|here)/gi, `@${ZERO_WIDTH_SPACE}$1`);
}

/**
 * Cuts escaped text. A cut between a backslash and the character it escapes would leave the
 * backslash escaping the ellipsis instead (the text's own last character then lost from view): a
 * dangling backslash goes too.
 */
function cutEscaped(escaped: string, max: number): string {
  const cutText = cut(escaped, max);
  if (cutText === escaped) return cutText;
  const kept = cutText.slice(0, -ELLIPSIS.length);
  const backslashes = /\\*$/.exec(kept)![0].length;
  return backslashes % 2 === 1 ? kept.slice(0, -1) + ELLIPSIS : cutText;
}

/** Escaped, then cut: Discord's limits count what is sent. */
const plain = (text: string, max: number) => cutEscaped(escapeDiscordMarkdown(text), max);

/**
 * The message a Discord webhook receives: one embed, each part within its limit, and the whole
 * within 6,000 characters (fields go first, then the description is cut) — cut, never refused.
 */
export function discordMessage(event: NotificationEvent, publicUrl: string | undefined) {
  const title = plain(event.title, DISCORD_LIMITS.title);
  // Discord shows a footer as it is, without markdown: nothing to escape (and Moonrelay's words only).
  const footer = cut(`Moonrelay · ${event.kind} · ${event.id}`, DISCORD_LIMITS.footer);
  let fields = event.fields.slice(0, DISCORD_LIMITS.fields).map((field) => ({
    name: plain(field.name || '-', DISCORD_LIMITS.fieldName),
    value: plain(field.value || '-', DISCORD_LIMITS.fieldValue),
    inline: true,
  }));
  let description = plain(event.description, DISCORD_LIMITS.description);
  const total = () =>
    length(title) +
    length(footer) +
    length(description) +
    fields.reduce((n, f) => n + length(f.name) + length(f.value), 0);
  while (total() > DISCORD_LIMITS.total && fields.length > 0) fields = fields.slice(0, -1);
  if (total() > DISCORD_LIMITS.total)
    description = cutEscaped(description, DISCORD_LIMITS.total - (total() - length(description)));
  return {
    username: 'Moonrelay',
    // Nobody is pinged by a notification, whatever its text says (embeds ping no one today; this
    // keeps it so if a message ever gets content).
    allowed_mentions: { parse: [] as string[] },
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
