// The backlog on its own: what it holds while a job's work runs, and that it lets go of a job however
// the work ends (resolved, rejected, or thrown before its first await).
import { describe, expect, it } from 'vitest';
import type { AllowancePayment } from '@voice-router/ledger';
import { createSettlementBacklog, type SettlementWork } from './settlement-backlog.js';
import type { SettlementJob } from './settler.js';

function recordingLogger() {
  const errors: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  return { errors, logger: { warn: () => undefined, error: (message: string, fields?: Record<string, unknown>) => errors.push({ message, fields }) } };
}

const job = (reservationId: string, allowanceId?: string): SettlementJob => ({
  action: 'commit', reservationId, accountId: 'a',
  ...(allowanceId ? { allowance: { id: allowanceId } as unknown as AllowancePayment } : {}),
});

function gate() {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('settlement backlog', () => {
  it('holds a job (and its allowance) while its work runs, and lets go of it when the work ends', async () => {
    const { logger } = recordingLogger();
    const backlog = createSettlementBacklog({ maxPending: 10, logger });
    const gates = new Map<string, ReturnType<typeof gate>>();
    const work: SettlementWork = (held) => {
      const g = gate();
      gates.set(held.reservationId, g);
      return g.promise;
    };
    expect(backlog.add(job('r1', 'allowance-1'), work)).toBe(true);
    expect(backlog.add(job('r2', 'allowance-1'), work)).toBe(true);
    // A reservation already held is not added again (its work does not run twice).
    expect(backlog.add(job('r1', 'allowance-1'), work)).toBe(true);
    expect(gates.size).toBe(2);
    expect(backlog.size).toBe(2);
    expect(backlog.inFlight(['r1', 'r2', 'r3', 'allowance-1'])).toEqual(new Set(['r1', 'r2', 'allowance-1']));

    gates.get('r1')!.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(backlog.size).toBe(1);
    // r2 still holds the allowance.
    expect(backlog.inFlight(['r1', 'allowance-1'])).toEqual(new Set(['allowance-1']));

    gates.get('r2')!.fail(new Error('lost'));
    const drained = await backlog.drain(1_000);
    expect(drained).toEqual({ abandoned: 0 });
    expect(backlog.size).toBe(0);
    expect(backlog.inFlight(['r2', 'allowance-1'])).toEqual(new Set());
  });

  it('lets go of a job whose work throws before it returns a promise, and logs it', async () => {
    const { logger, errors } = recordingLogger();
    const backlog = createSettlementBacklog({ maxPending: 10, logger });
    const throwing: SettlementWork = () => {
      throw new Error('thrown at once');
    };
    expect(backlog.add(job('r1', 'allowance-1'), throwing)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(backlog.size).toBe(0);
    expect(backlog.inFlight(['r1', 'allowance-1'])).toEqual(new Set());
    expect(errors.map((entry) => entry.message)).toEqual(['settlement failed unexpectedly']);
    expect(await backlog.drain(100)).toEqual({ abandoned: 0 });
  });

  it('gives every job the same work function and the backlog\'s stop signal', async () => {
    const { logger } = recordingLogger();
    const backlog = createSettlementBacklog({ maxPending: 10, logger });
    const signals: AbortSignal[] = [];
    const pending = gate();
    const work: SettlementWork = (_job, signal) => {
      signals.push(signal);
      return pending.promise;
    };
    backlog.add(job('r1'), work);
    backlog.add(job('r2'), work);
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(signals[1]);
    expect(signals[0]!.aborted).toBe(false);
    backlog.stop();
    expect(signals[0]!.aborted).toBe(true);
    pending.open();
    await backlog.drain(1_000);
    expect(backlog.size).toBe(0);
  });
});
