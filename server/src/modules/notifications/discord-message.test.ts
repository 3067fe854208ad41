import { describe, expect, it } from 'vitest';
import type { ConsoleLine } from '@moonrelay/contract/console';
import type { ModerationAction } from '@moonrelay/contract/moderation';
import type { RunSummary } from '@moonrelay/contract/runs';
import { moderationEvent } from '../moderation/moderation-events.ts';
import { cut, DISCORD_COLOURS, DISCORD_LIMITS, discordMessage } from './discord-message.ts';
import { webhookBody, type NotificationEvent } from './notification-event.ts';
import { createNotificationSources } from './notification-sources.ts';
import type { RaisedEvent } from './notifier.ts';

const event = (over: Partial<NotificationEvent> = {}): NotificationEvent => ({
  id: 'e1',
  kind: 'server.disconnected',
  userId: 'u1',
  occurredAt: '2026-11-27T10:00:00.000Z',
  title: '300 game servers disconnected',
  description: 'srv-1, srv-2 and 298 more disconnected within 3 seconds.',
  path: '/dashboard',
  fields: [{ name: 'Servers', value: '300' }],
  data: {},
  ...over,
});

const size = (text: string) => Array.from(text).length;

describe('Discord messages', () => {
  it('is one embed with the kind’s colour and a link to the dashboard page', () => {
    const message = discordMessage(event(), 'https://moonrelay.example.com/');
    expect(message.embeds).toHaveLength(1);
    expect(message.embeds[0]).toMatchObject({
      title: '300 game servers disconnected',
      url: 'https://moonrelay.example.com/dashboard',
      color: DISCORD_COLOURS['server.disconnected'],
      timestamp: '2026-11-27T10:00:00.000Z',
    });
    expect(new Set(Object.values(DISCORD_COLOURS)).size).toBe(Object.keys(DISCORD_COLOURS).length);
    expect(discordMessage(event(), undefined).embeds[0]).not.toHaveProperty('url');
  });

  it('cuts every part to its limit with an ellipsis, and the whole to 6,000 characters', () => {
    const huge = discordMessage(
      event({
        title: '🙂'.repeat(300),
        description: 'd'.repeat(10_000),
        fields: Array.from({ length: 40 }, () => ({ name: 'n'.repeat(300), value: 'v'.repeat(2000) })),
      }),
      undefined,
    ).embeds[0]!;
    expect(size(huge.title)).toBe(DISCORD_LIMITS.title);
    expect(huge.title.endsWith('…')).toBe(true);
    expect(huge.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const field of huge.fields) {
      expect(size(field.name)).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(size(field.value)).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    }
    const total =
      size(huge.title) +
      size(huge.description) +
      size(huge.footer.text) +
      huge.fields.reduce((n, f) => n + size(f.name) + size(f.value), 0);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    expect(huge.description.endsWith('…')).toBe(true);
  });

  it('leaves text within its limit as it is', () => {
    expect(cut('short', 10)).toBe('short');
    expect(cut('exactly10!', 10)).toBe('exactly10!');
    expect(cut('eleven char', 10)).toBe('eleven ch…');
  });
});

/** Text a game or a player chose, with every piece of Discord markdown that would do something. */
const HOSTILE = [
  '[Verify your account](https://evil.example) **now** __or__ *lose* ~~it~~ ||all|| `x` ```lua',
  'print(1)``` @everyone @here <@123> <@&456> <#789> <t:1:R> <:pepe:42> <https://evil.example>',
  '# Heading',
  '## Heading',
  '-# Subtext',
  '> quote',
  '>>> quote to the end',
  '- item',
  '  * nested item',
  '+ item',
  '1. first',
  '12) twelfth',
  'C:\\Users\\x\\ and a trailing \\',
  'http://plain.example/path?q=1 and HTTPS://LOUD.EXAMPLE and steam://run/1',
].join('\n');

/**
 * What of `text` Discord would read as markdown (a format, a link, a mention, a line's block):
 * characters after a backslash are literal, as Discord reads them.
 */
function liveMarkdown(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const start = /^[ \t]*(?:[#>+*-]|\d+[.)])/.exec(line);
    if (start) found.push(`line start: ${start[0]}`);
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\\') {
        i++;
        continue;
      }
      if ('*_~`|[<'.includes(line[i]!)) found.push(`${line[i]} in ${line}`);
    }
    for (const link of line.match(/[a-z][a-z0-9+.-]*:\/\//gi) ?? []) found.push(`link: ${link}`);
    for (const mention of line.match(/@(?:everyone|here)/g) ?? []) found.push(`mention: ${mention}`);
  }
  return found;
}

/** The text Discord shows for escaped markdown: backslashes and zero-width spaces gone. */
const shown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1').replaceAll('\u200b', '');

/** Every text of a Discord message that Discord renders as markdown. */
const renderedTexts = (message: ReturnType<typeof discordMessage>) =>
  message.embeds.flatMap((embed) => [
    embed.title,
    embed.description,
    ...embed.fields.flatMap((field) => [field.name, field.value]),
  ]);

describe('game-controlled text in Discord messages', () => {
  it('escapes masked links, formats, mentions, headings, lists, quotes, code and links', () => {
    const message = discordMessage(
      event({
        title: `Run of ${HOSTILE} failed`,
        description: HOSTILE,
        fields: [{ name: HOSTILE, value: HOSTILE }],
      }),
      undefined,
    );
    for (const text of renderedTexts(message)) expect(liveMarkdown(text)).toEqual([]);
    // Shown as the game wrote it, only not as markdown (the title and the field are cut to their limits).
    const { title, description, fields } = message.embeds[0]!;
    expect(description).not.toBe(HOSTILE);
    expect(shown(description)).toBe(HOSTILE);
    expect(`Run of ${HOSTILE} failed`.startsWith(shown(title).replace(/…$/, ''))).toBe(true);
    expect(HOSTILE.startsWith(shown(fields[0]!.name).replace(/…$/, ''))).toBe(true);
    expect(shown(fields[0]!.value)).toBe(HOSTILE);
    expect(message.embeds[0]!.description.split('\n').slice(0, 3)).toEqual([
      '\\[Verify your account\\](https:\u200b//evil.example) \\*\\*now\\*\\* \\_\\_or\\_\\_ \\*lose\\* \\~\\~it\\~\\~ \\|\\|all\\|\\| \\`x\\` \\`\\`\\`lua',
      'print(1)\\`\\`\\` @\u200beveryone @\u200bhere \\<@123> \\<@&456> \\<#789> \\<t:1:R> \\<:pepe:42> \\<https:\u200b//evil.example>',
      '\\# Heading',
    ]);
  });

  it('sends allowed_mentions with nothing to parse, whatever the event', () => {
    expect(discordMessage(event(), undefined).allowed_mentions).toEqual({ parse: [] });
    expect(discordMessage(event({ description: '@everyone <@123>' }), 'https://x.example/').allowed_mentions).toEqual({
      parse: [],
    });
  });

  it('cuts after escaping, never leaving a backslash that escapes the ellipsis', () => {
    const message = discordMessage(event({ title: '*'.repeat(300), description: '\\'.repeat(5000) }), undefined);
    const { title, description } = message.embeds[0]!;
    expect(Array.from(title).length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(liveMarkdown(title)).toEqual([]);
    expect(title.endsWith('\\*…')).toBe(true);
    expect(/(?:^|[^\\])(?:\\\\)*…$/.test(description)).toBe(true);
  });

  it('escapes every text the event sources take from a game, a player or a user', () => {
    const raised: RaisedEvent[] = [];
    const sources = createNotificationSources((_userId, build) => raised.push(build()));
    const line: ConsoleLine = {
      id: '1',
      serverId: 'srv_1_',
      time: '2026-11-27T10:00:00.000Z',
      level: 'error',
      text: HOSTILE,
      stack: null,
      script: 'ServerScriptService.__init__ [https://evil.example]',
      own: false,
      executionId: null,
    };
    sources.observe({ type: 'console:lines', userId: 'u1', lines: [line], drops: [] });
    sources.serverPinged({ userId: 'u1', serverId: '__srv__', gameData: null, lastPingMs: 1, connectedAtMs: 1 });
    sources.serverGone({ userId: 'u1', serverId: '**gone**', gameData: null, lastPingMs: 1, connectedAtMs: 1 });
    const run: RunSummary = {
      id: 'r1',
      scriptId: 's1',
      scriptName: '[Free Robux](https://evil.example) @everyone',
      scriptVersion: 1,
      target: 'game',
      serverId: '_srv_',
      status: 'failed',
      limitHit: null,
      durationMs: 5,
      startedBy: 'schedule',
      actorId: null,
      actorName: null,
      keyName: null,
      createdAt: '2026-11-27T10:00:00.000Z',
    };
    sources.observe({ type: 'execution:updated', userId: 'u1', run });
    sources.flush();
    const action: ModerationAction = {
      id: 'a1',
      userId: 42,
      kind: 'ban',
      actorId: 'u1',
      actorName: '__admin__ <@1>',
      message: '# Banned\n> [appeal here](https://evil.example) @here',
      privateReason: null,
      durationSeconds: null,
      excludeAltAccounts: false,
      path: 'game',
      state: 'applied',
      error: null,
      serverId: 'srv_1',
      replaces: null,
      endedBy: null,
      createdAt: '2026-11-27T10:00:00.000Z',
      completedAt: '2026-11-27T10:00:01.000Z',
    };
    raised.push(moderationEvent(action, '**xX_Display_Xx** [click](https://evil.example)')!);
    raised.push(
      moderationEvent({ ...action, state: 'failed', error: '`Roblox` said <@&1> https://evil.example' }, null)!,
    );
    expect(raised.map((r) => r.kind).sort()).toEqual([
      'console.error-burst',
      'player.banned',
      'player.banned',
      'schedule.failed',
      'server.connected',
      'server.disconnected',
    ]);
    for (const one of raised) {
      const full = event({ ...one });
      const message = discordMessage(full, undefined);
      for (const text of renderedTexts(message)) expect(liveMarkdown(text), `${one.kind}: ${text}`).toEqual([]);
      // A generic webhook gets the raw text: its receiver reads JSON, not markdown.
      const body = webhookBody(full, undefined, 'd1');
      expect(body.title).toBe(one.title);
      expect(body.description).toBe(one.description);
      expect(body.data).toEqual(one.data);
    }
    const burst = raised.find((r) => r.kind === 'console.error-burst')!;
    expect(burst.description).toContain('[Verify your account](https://evil.example)');
  });
});
