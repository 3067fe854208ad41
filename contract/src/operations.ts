import { z } from 'zod';

/** GET /api/health: 200 while the database answers (503 when it does not), with Redis beside it. */
export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    mode: z.enum(['embedded', 'scale-out']),
    database: z.enum(['ok', 'error']),
    /** 'disabled' in the embedded mode (no REDIS_URL). */
    redis: z.enum(['ok', 'error', 'disabled']),
    uptimeSeconds: z.number().int(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

/** GET /api/health/live: the process answers. Never touches the database or Redis. */
export const HealthLiveSchema = z
  .object({ status: z.literal('ok'), version: z.string(), uptimeSeconds: z.number().int() })
  .meta({ id: 'HealthLive' });
export type HealthLive = z.infer<typeof HealthLiveSchema>;

/**
 * GET /api/health/ready: whether this instance should get traffic, with each dependency's state.
 * 503 while the database or (in the scale-out mode) Redis does not answer. Workers are reported
 * but do not take the instance out of rotation: without them only sandbox runs and mass
 * executions wait, and every instance would leave at once.
 */
export const HealthReadySchema = HealthSchema.extend({
  workers: z.object({
    /** 'in-process' in the embedded mode; 'none' when no worker process is connected to the queue. */
    status: z.enum(['in-process', 'ok', 'none', 'error']),
    count: z.number().int().nullable(),
  }),
}).meta({ id: 'HealthReady' });
export type HealthReady = z.infer<typeof HealthReadySchema>;
