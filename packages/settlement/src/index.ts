// @voice-router/settlement: ending reservations (commit or void), in-process or through BullMQ, and the reaper.
export type { Settler, SettlementJob, SettlementLogger } from './settler.js';
export { applySettlement } from './apply-settlement.js';
export { createInProcessSettler } from './in-process-settler.js';
export { createQueueSettler, settlementJobId, type QueueSettlerOptions } from './queue-settler.js';
export { startSettlementWorker, type SettlementWorker, type SettlementWorkerOptions } from './settlement-worker.js';
export { startReaper, type ReaperOptions } from './reaper.js';
export { SETTLEMENT_QUEUE } from './redis-connection.js';
