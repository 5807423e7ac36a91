// The batching and the memory bound of the stdout destination, against a stand-in for process.stdout.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StdoutBatches } from './stdout-batches.js';

class FakeStdout extends EventEmitter {
  writes: string[] = [];
  writableLength = 0;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
}

const line = (n: number) => `{"n":${n}}\n`;

describe('stdout batches', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes once a batch is full, and what gathered after the flush period otherwise', () => {
    const target = new FakeStdout();
    const batches = new StdoutBatches(target, { batchBytes: 30, flushMs: 100, maxQueuedBytes: 1000 });
    batches.write(line(1));
    batches.write(line(2));
    expect(target.writes).toEqual([]);
    batches.write(line(3));
    batches.write(line(4));
    expect(target.writes).toEqual([line(1) + line(2) + line(3) + line(4)]);
    batches.write(line(5));
    vi.advanceTimersByTime(99);
    expect(target.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(target.writes).toEqual([line(1) + line(2) + line(3) + line(4), line(5)]);
  });

  it('drops batches while the target holds more than its bound, and prefixes the next batch with the count', () => {
    const target = new FakeStdout();
    const batches = new StdoutBatches(target, { batchBytes: 1, flushMs: 100, maxQueuedBytes: 1000, now: () => 'T', app: 'data-plane' });
    target.writableLength = 1001;
    batches.write(line(1));
    batches.write(line(2));
    expect(target.writes).toEqual([]);
    expect(batches.dropped).toBe(2);
    target.writableLength = 0;
    batches.write(line(3));
    expect(target.writes).toEqual([
      '{"level":"warn","time":"T","app":"data-plane","msg":"stdout was not read fast enough: log lines were dropped","droppedLines":2}\n' + line(3),
    ]);
    expect(batches.dropped).toBe(0);
  });

  it('drain waits for the target to empty, or for its timeout', async () => {
    const target = new FakeStdout();
    const batches = new StdoutBatches(target, { batchBytes: 1000, flushMs: 100, maxQueuedBytes: 1000 });
    batches.write(line(1));
    target.writableLength = 10;
    let drained = false;
    const waiting = batches.drain(500).then(() => { drained = true; });
    expect(target.writes).toEqual([line(1)]);
    await vi.advanceTimersByTimeAsync(10);
    expect(drained).toBe(false);
    target.writableLength = 0;
    target.emit('drain');
    await waiting;
    expect(drained).toBe(true);
    const timedOut = new StdoutBatches(Object.assign(new FakeStdout(), { writableLength: 5 }), { batchBytes: 1000, flushMs: 100, maxQueuedBytes: 1000 });
    timedOut.write(line(2));
    const late = timedOut.drain(500);
    await vi.advanceTimersByTimeAsync(500);
    await expect(late).resolves.toBeUndefined();
  });

  it('writes nothing more once the target has failed', () => {
    const target = new FakeStdout();
    const batches = new StdoutBatches(target, { batchBytes: 1, flushMs: 100, maxQueuedBytes: 1000 });
    batches.markBroken();
    batches.write(line(1));
    batches.flush();
    vi.advanceTimersByTime(200);
    expect(target.writes).toEqual([]);
  });
});
