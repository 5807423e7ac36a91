// Prometheus metrics shared by every app: the registry, the listener, the settings, the definitions.
export { createMetricsRegistry, metricGroup, type MetricsRegistry } from './metrics-registry.js';
export { cellCounter, cellHistogram, CountCell, ObserveCell, type CellMetric } from './metric-cells.js';
export { startMetricsServer, startProcessMetrics, type MetricsServer, type MetricsServerOptions, type MetricsServerRoute } from './metrics-server.js';
export { DEFAULT_METRICS_PORT, metricsEnvironmentShape, metricsSettings, type MetricsSettings } from './metrics-environment.js';
export {
  allowanceMetrics, httpMetrics, limitMetrics, reservationMetrics, serverInfoMetric, settlementQueueMetrics, settlerMetrics, speechMetrics, upstreamMetrics,
  type AllowanceStats, type BreakerStateName, type LimitRefusalKind, type OpenReservationStats, type SettlementBacklogStats, type SettlementQueueStats,
  type SpeechStreamCounters,
} from './metric-definitions.js';
