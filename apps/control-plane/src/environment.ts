// The control plane's configuration as a process of its own (scaled-out mode).
import { z } from 'zod';

export const controlPlaneEnvironmentSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  CONTROL_PLANE_PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});
