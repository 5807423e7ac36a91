// The cancellation of a speech request and of each of its upstream attempts. What the speech path uses of an
// AbortSignal is `aborted`, `reason`, `throwIfAborted()` and 'abort' listeners: that is all this offers, and
// the speech path's types ask for no more (AbortSignalLike), so nothing hands it to an API that needs a real
// AbortSignal (fetch, AbortSignal.any).
//
// Not an AbortController, because on Node 20 (the native uWS server's line) an AbortSignal is slow to make and
// to use: Node builds it as an EventTarget and then changes its prototype, which leaves V8 a slow object.
// Measured on one host, per operation: creating the signal 3.4–4.0 µs (Node 24: 0.1–0.3), adding and removing
// a listener 2.2–3.1 µs (0.5–1.3), reading `aborted` 0.4 µs (0.015). Every speech request made two such
// signals (its own and its attempt's) and read and listened to them on every step.
//
// Not an EventTarget either: one holds a Map of listener lists and wraps each listener in an object of its own
// (EventTarget's bookkeeping for `once`, `passive`, `capture` and weak listeners). A request's signals have one
// to three 'abort' listeners at a time, all functions added with `{ once: true }`, so they are kept in a plain
// array. Measured on Node 20 (scratch, a request's two signals and three listeners, two of them removed): 0.13–0.15
// µs against 0.40–0.45 as EventTargets, and 534 bytes live on the heap against 1,351 (the closures included).
//
// What it keeps of EventTarget's contract for 'abort': a listener (a function or an object with
// `handleEvent`) added twice is called once; one removed before its turn, even while the abort is being
// told, is not called; one added once aborted is never called (the abort happens once); each is called with
// an Event of type 'abort' (whose `target` is null: nothing here reads it) and `this` the signal. A listener
// that throws does not stop the others, and its error is reported as uncaught, as Node's EventTarget
// reports it. Other event types are accepted and never fired. Every listener is called at most once, so
// `once` changes nothing; `capture`, `passive` and `signal` options are not supported (nothing passes them).

/** The part of AbortSignal the speech path may use; a real AbortSignal is one too. */
export type AbortSignalLike = Pick<AbortSignal, 'aborted' | 'reason' | 'throwIfAborted' | 'addEventListener' | 'removeEventListener'>;

type Listener = Parameters<AbortSignal['addEventListener']>[1];

export class LightAbortSignal implements AbortSignalLike {
  #aborted = false;
  #reason: unknown = undefined;
  /** The 'abort' listeners in the order added; undefined until the first and again once told. */
  #listeners: Listener[] | undefined = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  addEventListener(type: string, listener: Listener | null, _options?: Parameters<AbortSignal['addEventListener']>[2]): void {
    if (type !== 'abort' || !listener || this.#aborted) return;
    const listeners = this.#listeners;
    if (!listeners) this.#listeners = [listener];
    else if (!listeners.includes(listener)) listeners.push(listener);
  }

  removeEventListener(type: string, listener: Listener | null, _options?: Parameters<AbortSignal['removeEventListener']>[2]): void {
    const listeners = this.#listeners;
    if (type !== 'abort' || !listener || !listeners) return;
    const index = listeners.indexOf(listener);
    if (index >= 0) listeners.splice(index, 1);
  }

  /** Like AbortController.abort(reason): only the first call counts; 'abort' listeners run at once. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    if (!listeners) return;
    const event = new Event('abort');
    // Walked over a copy; a listener that another removed meanwhile is skipped (it is gone from the list).
    for (const listener of [...listeners]) {
      if (!listeners.includes(listener)) continue;
      try {
        if (typeof listener === 'function') listener.call(this, event);
        else listener.handleEvent(event);
      } catch (error) {
        process.nextTick(() => {
          throw error;
        });
      }
    }
    this.#listeners = undefined;
  }
}
