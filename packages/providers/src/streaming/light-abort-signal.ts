// The cancellation of a speech request and of each of its upstream attempts. What the speech path uses of an
// AbortSignal is `aborted`, `reason`, `throwIfAborted()` and 'abort' listeners: that is all this offers, and
// the speech path's types ask for no more (AbortSignalLike), so nothing hands it to an API that needs a real
// AbortSignal (fetch, AbortSignal.any).
//
// Not an AbortController, because on Node 20 (the native uWS server's line) an AbortSignal is slow to make and
// to use: Node builds it as an EventTarget and then changes its prototype, which leaves V8 a slow object.
// Measured on one host, per operation: creating the signal 3.4–4.0 µs (Node 24: 0.1–0.3), adding and removing
// a listener 2.2–3.1 µs (0.5–1.3), reading `aborted` 0.4 µs (0.015). A plain EventTarget subclass costs what
// an EventTarget does (creating one and adding a listener: 0.26 µs on Node 20). Every speech request made two
// such signals (its own and its attempt's) and read and listened to them on every step.

/** The part of AbortSignal the speech path may use; a real AbortSignal is one too. */
export type AbortSignalLike = Pick<AbortSignal, 'aborted' | 'reason' | 'throwIfAborted' | 'addEventListener' | 'removeEventListener'>;

export class LightAbortSignal extends EventTarget implements AbortSignalLike {
  #aborted = false;
  #reason: unknown = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Like AbortController.abort(reason): only the first call counts; 'abort' listeners run at once. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.dispatchEvent(new Event('abort'));
  }
}
