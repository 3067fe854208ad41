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
