import { z } from 'zod';
import { printableText } from './common.ts';
import {
  CONSOLE_BATCH_MAX_LINES,
  CONSOLE_LEVELS,
  CONSOLE_LINE_MAX_CHARS,
  CONSOLE_PAGE_MAX_LINES,
  CONSOLE_SEARCH_MAX_CHARS,
  CONSOLE_STACK_MAX_CHARS,
} from './constants.ts';

/**
 * The live game console: what a game server's own scripts print, warn and throw. The integration
 * script listens to LogService.MessageOut and ScriptContext.Error and sends the lines up with its
 * pings in batches (`console` in the ping body); Moonrelay keeps the last lines per game server and
 * pushes new ones to the owner's browsers (`console:lines`). Lines are plain text everywhere: the
 * web app never renders them as HTML.
 */

/**
 * Roblox's Enum.MessageType, in the words the Console shows: MessageOutput -> output,
 * MessageInfo -> info, MessageWarning -> warning, MessageError (and ScriptContext.Error) -> error.
 */
export const ConsoleLevelSchema = z.enum(CONSOLE_LEVELS);
export type ConsoleLevel = z.infer<typeof ConsoleLevelSchema>;
export { CONSOLE_LEVELS };

/**
 * Text from a game: any length arrives (a game cannot be told to fix its prints), and what is kept
 * is cut to `max` characters with U+0000 shown as U+FFFD, so a line is never refused for its
 * content. The server makes the rest safe (control characters, lone surrogates) before storing.
 */
const gameText = (max: number) => z.string().transform((text) => printableText(text.slice(0, max)));

/** One line as the game sends it. */
export const ConsoleLineInSchema = z.object({
  /** When the game logged it: Unix time in milliseconds (DateTime.now().UnixTimestampMillis). */
  time: z.number().finite().min(0).max(8.64e15),
  level: ConsoleLevelSchema,
  text: gameText(CONSOLE_LINE_MAX_CHARS),
  /** ScriptContext.Error's stack trace. */
  stack: gameText(CONSOLE_STACK_MAX_CHARS).optional(),
  /** The full name of the script that raised the error (ScriptContext.Error's third argument). */
  script: gameText(200).optional(),
  /** True for the integration script's own `[Moonrelay]` lines. */
  own: z.boolean().optional(),
  /** The command the line came from, when it came from code Moonrelay sent (links it to its run). */
  commandId: z.string().max(100).optional(),
});
export type ConsoleLineIn = z.infer<typeof ConsoleLineInSchema>;

/** The `console` field of a ping: the lines logged since the last ping, oldest first. */
export const ConsoleBatchSchema = z.object({
  lines: z.array(ConsoleLineInSchema).max(CONSOLE_BATCH_MAX_LINES),
  /** Lines the game dropped (oldest first) because it logged faster than its pings could carry. */
  dropped: z.number().int().min(0).max(1e9).optional(),
});
export type ConsoleBatch = z.infer<typeof ConsoleBatchSchema>;

/** One kept line, as the API and the socket event give it. */
export const ConsoleLineSchema = z
  .object({
    /** Opaque and increasing per user: the order lines were received in. */
    id: z.string(),
    serverId: z.string(),
    /** When the game logged it (ISO 8601). */
    time: z.string(),
    level: ConsoleLevelSchema,
    text: z.string(),
    stack: z.string().nullable(),
    script: z.string().nullable(),
    own: z.boolean(),
    /** The run whose code logged it, when known. */
    executionId: z.string().nullable(),
    /**
     * Only on Moonrelay's marker lines (level warning, own): this many lines of the server were
     * lost just before this point, dropped by the game (it logged faster than its pings could
     * carry) or over the account's console budget. Its text says so in words.
     */
    dropped: z.number().int().min(1).optional(),
  })
  .meta({ id: 'ConsoleLine' });
export type ConsoleLine = z.infer<typeof ConsoleLineSchema>;

/**
 * A marker in the stream: this many lines of a game server are missing before the ones that follow.
 * `reason` 'game' (or absent): they are lost (the game dropped them, or they were over the account's
 * console budget; the API shows a marker line with `dropped` in their place). 'live': they are kept
 * and the API has them, but this event carried only the newest CONSOLE_EVENT_MAX_LINES lines.
 */
export const ConsoleDropSchema = z.object({
  serverId: z.string(),
  count: z.number().int().min(1),
  time: z.string(),
  reason: z.enum(['game', 'live']).optional(),
});
export type ConsoleDrop = z.infer<typeof ConsoleDropSchema>;

const levelList = z
  .string()
  .max(100)
  .transform((value, ctx) => {
    const levels = value.split(',').filter(Boolean);
    for (const level of levels) {
      if (!ConsoleLevelSchema.safeParse(level).success) {
        ctx.addIssue({
          code: 'custom',
          message: `level must be a comma-separated list of ${CONSOLE_LEVELS.join(', ')}`,
        });
        return z.NEVER;
      }
    }
    return levels as ConsoleLevel[];
  });

/** GET /api/game/console: newest first, `cursor` from the previous page's `nextCursor`. */
export const ConsoleQuerySchema = z.object({
  serverId: z.string().max(100).optional(),
  /** Only lines logged at or after this time (ISO 8601). */
  since: z.iso.datetime().optional(),
  level: levelList.optional(),
  /** Case-insensitive text search in the line and its stack. */
  q: z.string().max(CONSOLE_SEARCH_MAX_CHARS).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(CONSOLE_PAGE_MAX_LINES).optional(),
});
export type ConsoleQuery = z.infer<typeof ConsoleQuerySchema>;

export const ConsolePageSchema = z
  .object({
    lines: z.array(ConsoleLineSchema),
    /**
     * Pass as `cursor` for the next (older) page; null on the last page. A filtered page (q, level,
     * since) looks through CONSOLE_SEARCH_SCAN_LINES lines at most, so it may hold fewer lines than
     * asked, even none, with a nextCursor: keep asking while there is one to look further back.
     */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ConsolePage' });
export type ConsolePage = z.infer<typeof ConsolePageSchema>;

/** Errors per game server in the last hour, for the server cards. */
export const ConsoleErrorCountsSchema = z
  .object({ servers: z.array(z.object({ serverId: z.string(), errorsLastHour: z.number().int().min(0) })) })
  .meta({ id: 'ConsoleErrorCounts' });
export type ConsoleErrorCounts = z.infer<typeof ConsoleErrorCountsSchema>;

/**
 * Socket event `console:lines`: new lines of one user's game servers, oldest first. Coalesced: a
 * browser gets a few of these a second at most, however fast the games print.
 */
export const ConsoleLinesEventSchema = z.object({
  userId: z.string(),
  lines: z.array(ConsoleLineSchema),
  drops: z.array(ConsoleDropSchema),
});
export type ConsoleLinesEvent = z.infer<typeof ConsoleLinesEventSchema>;
