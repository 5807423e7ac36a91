// Embedded mode: settle straight into the database, off the request path, retrying briefly on errors.
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { createPendingWork } from './pending-work.js';
import { silentLogger, type SettlementJob, type SettlementLogger, type Settler } from './settler.js';

export function createInProcessSettler(options: { sql: SqlClient; logger?: SettlementLogger; attempts?: number }): Settler {
  const logger = options.logger ?? silentLogger;
  const attempts = options.attempts ?? 5;
  const pending = createPendingWork();

  async function run(job: SettlementJob): Promise<void> {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await applySettlement(options.sql, job, 'request');
        return;
      } catch (error) {
        if (attempt === attempts) {
          // The reservation stays pending; the reaper will void it.
          logger.error('settlement failed; leaving it to the reaper', { reservationId: job.reservationId, action: job.action, error });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      }
    }
  }

  return {
    settle(job) {
      pending.track(run(job));
    },
    drain: () => pending.drain(),
    async close() {
      await this.drain();
    },
  };
}
