// The breaker's transitions with plain functions standing in for upstream calls.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitOpenError, ProviderError, UpstreamInvalidRequestError } from '../errors.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { ProviderBreaker, type BreakerPermit } from './provider-breaker.js';

const COOLDOWN_MS = 1000;
const serverError = () => new ProviderError({ provider: 'p', kind: 'http', category: 'upstream_server_error', statusCode: 500, isRetryable: true });
const rateLimited = () => new ProviderError({ provider: 'p', kind: 'http', category: 'upstream_rate_limited', statusCode: 429, isRetryable: true });
const never = new AbortController().signal;

let breaker: ProviderBreaker;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  breaker = new ProviderBreaker('p', { failureThreshold: 3, cooldownMs: COOLDOWN_MS, probeClaimTtlMs: 500 });
});
afterEach(() => vi.useRealTimers());

const fail = (error: unknown = serverError(), permit?: BreakerPermit, signal = never) =>
  rejectionOf(breaker.run(permit, signal, async () => Promise.reject(error)));
const succeed = (permit?: BreakerPermit) => breaker.run(permit, never, async () => 'audio');
const permitOf = () => {
  const admission = breaker.admit();
  if (!admission.ok) throw new Error(`not admitted: ${admission.rejection.state}`);
  return admission.permit;
};

async function openIt() {
  for (let failure = 0; failure < 3; failure += 1) await fail(failure === 1 ? rateLimited() : serverError());
  expect(breaker.view().state).toBe('open');
}

describe('ProviderBreaker', () => {
  it('opens after the threshold of consecutive upstream failures (429s included), not before', async () => {
    await fail();
    await fail(rateLimited());
    expect(breaker.view()).toEqual({ state: 'closed' });
    await fail();
    expect(breaker.view()).toEqual({ state: 'open', retryAfterMs: COOLDOWN_MS });
    expect(breaker.admit()).toEqual({ ok: false, rejection: { state: 'open', retryAfterMs: COOLDOWN_MS } });
    vi.advanceTimersByTime(400);
    expect(breaker.admit()).toEqual({ ok: false, rejection: { state: 'open', retryAfterMs: 600 } });
  });

  it('resets the count on a success, and counts neither client refusals nor cancellations', async () => {
    await fail();
    await fail();
    expect(await succeed()).toBe('audio');
    await fail();
    await fail();
    for (let refusal = 0; refusal < 5; refusal += 1) await fail(new UpstreamInvalidRequestError('p', 400, 'voice'));
    const cancelled = new AbortController();
    cancelled.abort();
    for (let abort = 0; abort < 5; abort += 1) await fail(cancelled.signal.reason, undefined, cancelled.signal);
    expect(breaker.view().state).toBe('closed');
    await fail();
    expect(breaker.view().state).toBe('open');
  });

  it('refuses calls while open without running them', async () => {
    await openIt();
    let ran = false;
    const error = await rejectionOf(breaker.run(undefined, never, async () => {
      ran = true;
    }));
    expect(error).toBeInstanceOf(CircuitOpenError);
    expect((error as CircuitOpenError).rejection).toMatchObject({ state: 'open' });
    expect(ran).toBe(false);
  });

  it('after the cooldown admits exactly one probe; a good probe closes the circuit', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    expect(breaker.view()).toEqual({ state: 'half_open' });
    const probe = permitOf();
    expect(probe.probe).toBe(true);
    expect(breaker.admit()).toEqual({ ok: false, rejection: { state: 'half_open' } });
    let finishProbe!: (value: string) => void;
    const running = breaker.run(probe, never, () => new Promise<string>((resolve) => (finishProbe = resolve)));
    expect(breaker.admit()).toEqual({ ok: false, rejection: { state: 'half_open' } });
    // A request admitted earlier (while closed) is checked again and refused rather than queued.
    expect(await rejectionOf(succeed())).toBeInstanceOf(CircuitOpenError);
    finishProbe('first byte');
    expect(await running).toBe('first byte');
    expect(breaker.view()).toEqual({ state: 'closed' });
    expect(permitOf().probe).toBe(false);
  });

  it('a failed probe reopens the circuit for another cooldown', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    await fail(serverError(), permitOf());
    expect(breaker.view()).toEqual({ state: 'open', retryAfterMs: COOLDOWN_MS });
  });

  it('a probe the client abandons counts as failed: nothing was learnt', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    const controller = new AbortController();
    const error = await rejectionOf(
      breaker.run(permitOf(), controller.signal, async () => {
        // The client leaves while the probe waits for upstream.
        controller.abort();
        throw controller.signal.reason;
      }),
    );
    expect((error as Error).name).toBe('AbortError');
    expect(breaker.view().state).toBe('open');
  });

  it('a probe refused for the client\'s own mistake closes the circuit: upstream answered', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    expect(await fail(new UpstreamInvalidRequestError('p', 404, 'voice'), permitOf())).toBeInstanceOf(UpstreamInvalidRequestError);
    expect(breaker.view().state).toBe('closed');
  });

  it('hands the probe slot back untouched when the caller left before anything went upstream', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    await rejectionOf(breaker.run(permitOf(), controller.signal, async () => {
      ran = true;
    }));
    expect(ran).toBe(false);
    expect(breaker.view()).toEqual({ state: 'half_open' });
    expect(permitOf().probe).toBe(true);
  });

  it('frees the probe slot when its holder releases it or lets it go stale', async () => {
    await openIt();
    vi.advanceTimersByTime(COOLDOWN_MS);
    const first = permitOf();
    first.release();
    first.release();
    const second = permitOf();
    expect(breaker.admit()).toMatchObject({ ok: false });
    vi.advanceTimersByTime(500);
    const third = permitOf();
    expect(third.probe).toBe(true);
    // The stale holder no longer owns the slot: it is refused, and only the new holder probes.
    expect(await rejectionOf(succeed(second))).toBeInstanceOf(CircuitOpenError);
    expect(await succeed(third)).toBe('audio');
    expect(breaker.view().state).toBe('closed');
  });
});
