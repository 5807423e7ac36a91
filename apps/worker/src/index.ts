// @voice-router/worker: background jobs. The embedded mode runs the same pieces in-process.
export { workerEnvironmentSchema } from './environment.js';
export { workerMetrics, type WorkerMetricHooks } from './metrics/worker-metrics.js';
