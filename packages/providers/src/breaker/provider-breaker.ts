// One provider's circuit breaker, on cockatiel: opens after N consecutive upstream failures, lets a single
// probe through once the cooldown has passed, and answers "may this request go upstream?" before the router
// reserves any money (admit), then wraps the upstream call itself (run).

import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { CircuitOpenError, ProviderError, type CircuitRejection } from '../errors.js';
import type { AbortSignalLike } from '../streaming/light-abort-signal.js';

export interface BreakerSettings {
  /** Consecutive counted failures (upstream 5xx, 429, timeouts, network errors...) that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one probe request may go upstream. */
  cooldownMs: number;
  /** How long a probe slot taken by admit() waits for its run() before another request may take it. */
  probeClaimTtlMs: number;
  /** Called each time the circuit opens (metrics). */
  onBreak?(): void;
}

export type BreakerView = { state: 'closed' } | CircuitRejection;

/** Issued by admit() and handed to run(). A probe permit holds the one half-open slot until used or released. */
export interface BreakerPermit {
  readonly probe: boolean;
  /** Gives the slot back when the request ends before reaching upstream (e.g. 402). Safe to call twice. */
  release(): void;
}

export type BreakerAdmission = { ok: true; permit: BreakerPermit } | { ok: false; rejection: CircuitRejection };

const CLOSED_PERMIT: BreakerPermit = { probe: false, release: () => undefined };

/** A probe whose caller gave up before the first byte: nothing was learnt, so it counts as a failed probe. */
class AbandonedProbe extends Error {
  constructor(readonly original: unknown) {
    super('probe abandoned by its caller');
  }
}

export class ProviderBreaker {
  readonly #policy: CircuitBreakerPolicy;
  readonly #settings: BreakerSettings;
  readonly #provider: string;
  /** When the circuit last opened (cockatiel keeps its own copy private). */
  #openedAt = 0;
  #claim: { permit: BreakerPermit; claimedAt: number } | undefined;

  constructor(provider: string, settings: BreakerSettings) {
    this.#provider = provider;
    this.#settings = settings;
    // Every ProviderError is an upstream failure; client refusals (UpstreamInvalidRequestError) and
    // cancellations are other types and leave the count alone.
    this.#policy = circuitBreaker(handleWhen((error) => (error instanceof ProviderError && error.kind !== 'overloaded') || error instanceof AbandonedProbe), {
      halfOpenAfter: settings.cooldownMs,
      breaker: new ConsecutiveBreaker(settings.failureThreshold),
    });
    this.#policy.onBreak(() => {
      this.#openedAt = Date.now();
      this.#claim = undefined;
      settings.onBreak?.();
    });
  }

  /** Open until the cooldown ends; half-open from then on until a probe has answered. */
  view(now = Date.now()): BreakerView {
    if (this.#policy.state === CircuitState.Closed) return { state: 'closed' };
    if (this.#policy.state === CircuitState.HalfOpen) return { state: 'half_open' };
    const retryAfterMs = this.#openedAt + this.#settings.cooldownMs - now;
    return retryAfterMs > 0 ? { state: 'open', retryAfterMs } : { state: 'half_open' };
  }

  /** Decides before any money moves: a closed circuit lets everyone through, a half-open one exactly one probe. */
  admit(now = Date.now()): BreakerAdmission {
    const view = this.view(now);
    if (view.state === 'closed') return { ok: true, permit: CLOSED_PERMIT };
    if (view.state === 'open') return { ok: false, rejection: view };
    const claimHeld = this.#claim !== undefined && now - this.#claim.claimedAt < this.#settings.probeClaimTtlMs;
    if (this.#policy.state === CircuitState.HalfOpen || claimHeld) return { ok: false, rejection: { state: 'half_open' } };
    const permit: BreakerPermit = {
      probe: true,
      release: () => {
        if (this.#claim?.permit === permit) this.#claim = undefined;
      },
    };
    this.#claim = { permit, claimedAt: now };
    return { ok: true, permit };
  }

  /**
   * Runs the upstream call (up to its first audio byte) under the breaker. A permit that is not the current
   * probe is checked again: the circuit may have opened since it was issued.
   */
  async run<T>(permit: BreakerPermit | undefined, signal: AbortSignalLike, call: () => Promise<T>): Promise<T> {
    if (signal.aborted) {
      // Gone before anything went upstream: a probe slot is handed back untouched.
      permit?.release();
      throw signal.reason;
    }
    let probe = permit !== undefined && permit.probe && this.#claim?.permit === permit;
    if (!probe) {
      const admission = this.admit();
      if (!admission.ok) throw new CircuitOpenError(this.#provider, admission.rejection);
      probe = admission.permit.probe;
    }
    // From here cockatiel owns the half-open state (execute() enters it synchronously), so the claim can go.
    if (probe) this.#claim = undefined;
    try {
      return await this.#policy.execute(async () => {
        try {
          return await call();
        } catch (error) {
          if (probe && signal.aborted) throw new AbandonedProbe(error);
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof AbandonedProbe) throw error.original;
      if (error instanceof BrokenCircuitError) {
        const view = this.view();
        throw new CircuitOpenError(this.#provider, view.state === 'closed' ? { state: 'half_open' } : view);
      }
      throw error;
    }
  }
}
