import { describe, expect, it } from 'vitest';
import { ServerIdSchema } from './game.ts';
import { CreateScheduleRequestSchema } from './schedules.ts';

/** A field over its maximum is refused with the maximum named, never cut to it (the forms no longer cut either). */
describe('fields over their maximum', () => {
  it('refuses a game server id over 100 characters, naming the maximum', () => {
    const result = ServerIdSchema.safeParse('s'.repeat(101));
    expect(result.error?.issues[0]?.message).toBe('serverId must be at most 100 characters');
    expect(ServerIdSchema.safeParse('s'.repeat(100)).success).toBe(true);
  });

  it('refuses a cron expression over 200 characters, naming the maximum', () => {
    const result = CreateScheduleRequestSchema.safeParse({
      kind: 'cron',
      cron: `0 ${'1,'.repeat(100)}1 * * *`,
      timeZone: 'UTC',
      target: 'sandbox',
    });
    expect(result.error?.issues.map((issue) => issue.message)).toContain('cron must be at most 200 characters');
  });
});
