// @voice-router/settlement: ending reservations (commit or void), in-process or through BullMQ, and the reaper.
export type { Settler, SettlementJob, SettlementBatch, QueuedSettlement, SettlementLogger, SettlementGuard, DrainResult, RetryPolicy, SettlerLimits } from './settler.js';
export { settlementsOf } from './settler.js';
export { createSettlementApplier, DEFAULT_SETTLEMENT_PARTITIONS, partitionOf, type BatchPacing, type SettlementApplier } from './settlement-applier.js';
export { DEFAULT_RETRY, DEFAULT_MAX_PENDING, DEFAULT_DRAIN_TIMEOUT_MS } from './settler.js';
export { applySettlement } from './apply-settlement.js';
export { createInProcessSettler, type InProcessSettlerOptions } from './in-process-settler.js';
export { createQueueSettler, SETTLEMENT_BATCH_WINDOW_MS, MAX_SETTLEMENTS_PER_JOB, type QueueSettlerOptions } from './queue-settler.js';
export { createQueuedSettlementGuard, type QueuedSettlementGuard, type QueuedSettlementGuardOptions, type SettlementQueueCounts } from './queued-settlement-guard.js';
export { DEFAULT_SETTLEMENT_CONCURRENCY, startSettlementWorker, type SettlementWorker, type SettlementWorkerOptions } from './settlement-worker.js';
export { settlementJobOptions, settlementBackoffStrategy } from './settlement-job-options.js';
export { startReaper, type ReaperOptions } from './reaper.js';
export { SETTLEMENT_QUEUE, PRODUCER_COMMAND_TIMEOUT_MS, createProducerClient } from './redis-connection.js';
