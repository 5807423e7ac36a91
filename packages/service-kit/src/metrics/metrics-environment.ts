// The metrics settings every app reads: METRICS_PORT (default 9464, the port Prometheus exporters
// conventionally use; the images and manifests use it for every app, one app per container) and
// METRICS_ENABLED (false: no listener and nothing recorded, for benchmarks that price the metrics).
import { z } from 'zod';

export const DEFAULT_METRICS_PORT = 9464;

export const metricsEnvironmentShape = {
  /** 0 takes any free port (tests); the listener binds the app's HOST. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_ENABLED: z.stringbool().default(true),
};

export interface MetricsSettings {
  enabled: boolean;
  port: number;
  portIsDefault: boolean;
}

export function metricsSettings(environment: { METRICS_PORT?: number; METRICS_ENABLED: boolean }): MetricsSettings {
  return {
    enabled: environment.METRICS_ENABLED,
    port: environment.METRICS_PORT ?? DEFAULT_METRICS_PORT,
    portIsDefault: environment.METRICS_PORT === undefined,
  };
}
