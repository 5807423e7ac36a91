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

  it('keeps the rest of EventTarget\'s contract for abort listeners', () => {
    const signal = new LightAbortSignal();
    const heard: string[] = [];
    const twice = () => heard.push('twice');
    signal.addEventListener('abort', twice);
    signal.addEventListener('abort', twice, { once: true });
    // An object listener, with the signal as `this` for a function one.
    signal.addEventListener('abort', { handleEvent: (event) => heard.push(`object ${event.type}`) });
    let self: unknown;
    signal.addEventListener('abort', function (this: unknown) {
      self = this;
    });
    // One listener removes another that has not had its turn yet (as a stream's writer and its wake-up do).
    const later = () => heard.push('later');
    signal.addEventListener('abort', () => {
      heard.push('remover');
      signal.removeEventListener('abort', later);
      signal.addEventListener('abort', () => heard.push('added while telling'));
    });
    signal.addEventListener('abort', later);
    signal.addEventListener('other', () => heard.push('other'));
    signal.addEventListener('abort', null);
    signal.abort(new Error('stop'));
    expect(heard).toEqual(['twice', 'object abort', 'remover']);
    expect(self).toBe(signal);
    // Added once aborted: never called, as an AbortSignal never fires twice.
    signal.addEventListener('abort', () => heard.push('too late'));
    signal.abort(new Error('again'));
    expect(heard).toEqual(['twice', 'object abort', 'remover']);
  });

  it('a listener that throws does not keep the others from hearing; its error is reported as uncaught', async () => {
    const signal = new LightAbortSignal();
    const heard: string[] = [];
    const failure = new Error('listener failed');
    // The test runner's own handlers are set aside while this one error is caught here.
    const runners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    try {
      const reported = new Promise<unknown>((resolve, reject) => {
        process.once('uncaughtException', resolve);
        setTimeout(() => reject(new Error('nothing was reported')), 1_000);
      });
      signal.addEventListener('abort', () => {
        throw failure;
      });
      signal.addEventListener('abort', () => heard.push('after'));
      expect(() => signal.abort()).not.toThrow();
      expect(heard).toEqual(['after']);
      expect(await reported).toBe(failure);
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const listener of runners) process.on('uncaughtException', listener);
    }
  });
});
