// Configuration of the all-in-one process. Without DATABASE_URL/REDIS_URL it needs nothing installed.
import { checkStreamBound } from '@voice-router/service-kit';
import { z } from 'zod';
import { controlPlaneSettingsShape } from '@voice-router/control-plane';
import { dataPlaneEnvironmentShape } from '@voice-router/data-plane';

export const embeddedEnvironmentSchema = z
  .object({
  ...dataPlaneEnvironmentShape,
  ...controlPlaneSettingsShape,
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_PREFIX: z.string().min(1).default('vr'),
  /** With REDIS_URL: also consume settlement jobs in this process (turn off when separate workers run). */
  EMBEDDED_WORKER: z.stringbool().default(true),
  REAPER_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  })
  .superRefine(checkStreamBound);

export type EmbeddedEnvironment = z.infer<typeof embeddedEnvironmentSchema>;
