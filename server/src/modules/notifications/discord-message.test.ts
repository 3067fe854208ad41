import { describe, expect, it } from 'vitest';
import { cut, DISCORD_COLOURS, DISCORD_LIMITS, discordMessage } from './discord-message.ts';
import type { NotificationEvent } from './notification-event.ts';

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
