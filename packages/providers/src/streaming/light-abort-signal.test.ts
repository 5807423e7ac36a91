// The speech path's signal must behave like an AbortSignal for everything its consumers do with one.
import { describe, expect, it } from 'vitest';
import { LightAbortSignal } from './light-abort-signal.js';

describe('LightAbortSignal', () => {
  it('starts unaborted, then keeps the first reason and tells every listener once', () => {
    const signal = new LightAbortSignal();
    expect(signal.aborted).toBe(false);
    expect(signal.reason).toBeUndefined();
    expect(() => signal.throwIfAborted()).not.toThrow();
    const heard: string[] = [];
    signal.addEventListener('abort', () => heard.push('once'), { once: true });
    signal.addEventListener('abort', () => heard.push('plain'));
    const removed = () => heard.push('removed');
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    const reason = new Error('first');
    signal.abort(reason);
    signal.abort(new Error('second'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(() => signal.throwIfAborted()).toThrow(reason);
    expect(heard).toEqual(['once', 'plain']);
  });

  it('reads its reason inside a listener, as undici and the synthesizer do', () => {
    const signal = new LightAbortSignal();
    let seen: unknown;
    signal.addEventListener('abort', () => (seen = signal.reason), { once: true });
    const reason = new DOMException('deadline', 'TimeoutError');
    signal.abort(reason);
    expect(seen).toBe(reason);
  });

  it('aborts without a reason as AbortController does: with an AbortError', () => {
    const signal = new LightAbortSignal();
    const controller = new AbortController();
    signal.abort();
    controller.abort();
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe((controller.signal.reason as DOMException).name);
    expect(() => signal.throwIfAborted()).toThrow(/aborted/);
  });
});
