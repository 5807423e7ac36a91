// @voice-router/data-plane: the low-latency HTTP server for speech, catalog, status and credits.
export { startDataPlane, type DataPlane, type DataPlaneOptions } from './data-plane.js';
export {
  dataPlaneEnvironmentSchema, dataPlaneEnvironmentShape, dataPlaneSettings, keyLimiterSettings, providerSettings, settlerSettings,
  providerEnvironmentShape, catalogEnvironmentShape, catalogRefreshSettings, CATALOG_TASK_TIMEOUT_MS, openAICompatibleVariables, providerLineup,
  type DataPlaneEnvironment,
} from './environment.js';
export { startKeyLimiter, type KeyLimiterSettings } from './limits/request-limits.js';
export { startAllowancePeers } from './limits/allowance-peers.js';
export { upstreamObserver } from './metrics/data-plane-metrics.js';
