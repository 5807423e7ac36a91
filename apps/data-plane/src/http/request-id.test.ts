import crypto from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Heap bytes the values `make` returns keep alive, per value, after full collections. */
function heldBytesPerValue(make: () => string, count: number): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  // Filled first, so that the array's own growth is not counted.
  const held: string[] = new Array<string>(count).fill('');
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) held[i] = make();
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  expect(held.length).toBe(count);
  return (after - before) / count;
}

describe('newRequestId', () => {
  it('is a version 4 UUID, as crypto.randomUUID() makes', () => {
    for (let i = 0; i < 2_000; i++) expect(newRequestId()).toMatch(UUID_V4);
  });

  it('never repeats, across many draws of random bytes', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) ids.add(newRequestId());
    expect(ids.size).toBe(20_000);
  });

  it('uses every hex digit in every random position', () => {
    const seen = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 5_000; i++) [...newRequestId()].forEach((char, at) => seen[at]!.add(char));
    seen.forEach((chars, at) => {
      if ([8, 13, 18, 23].includes(at)) expect([...chars]).toEqual(['-']);
      else if (at === 14) expect([...chars]).toEqual(['4']);
      else if (at === 19) expect([...chars].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(chars.size).toBe(16);
    });
  });

  it('is one flat string: an id held for a while costs ~56 bytes, not a rope of pieces', () => {
    // crypto.randomUUID()'s result stays a rope of ~14 pieces until something flattens it: ~480 bytes held
    // per id against ~50 here (Node 20 and 24).
    const count = 50_000;
    const rope = heldBytesPerValue(() => crypto.randomUUID(), count);
    const flat = heldBytesPerValue(newRequestId, count);
    expect(rope).toBeGreaterThan(200);
    expect(flat).toBeLessThan(100);
  });
});
