import { describe, expect, it } from 'vitest';
import { childTraceparent, newSpanId, parseTraceparent } from './trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('reads a valid version-00 header (the specification\'s example)', () => {
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: 1 });
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-00`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: 0 });
  });

  it('refuses what the specification calls invalid', () => {
    for (const header of [
      undefined, '', 'garbage',
      `00-${'0'.repeat(32)}-${PARENT}-01`, // all-zero trace id
      `00-${TRACE}-${'0'.repeat(16)}-01`, // all-zero parent id
      `ff-${TRACE}-${PARENT}-01`, // version ff
      `00-${TRACE.toUpperCase()}-${PARENT}-01`, // upper-case hex
      `00-${TRACE}-${PARENT}-01-extra`, // version 00 has exactly four fields
      `00-${TRACE.slice(1)}-${PARENT}-01`, // short trace id
      `00-${TRACE}-${PARENT}-1`, // one-digit flags
      `0-${TRACE}-${PARENT}-01`,
      `00_${TRACE}_${PARENT}_01`,
      `00-${TRACE}-${PARENT}-0g`,
    ]) {
      expect(parseTraceparent(header), String(header)).toBeUndefined();
    }
  });

  it('reads a higher version by its first four fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-01-what-comes-later`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: 1 });
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: 1 });
  });

  it('passes the trace id on with a new parent id and only the sampled flag', () => {
    const context = parseTraceparent(`00-${TRACE}-${PARENT}-03`)!;
    const child = childTraceparent(context);
    const parsed = parseTraceparent(child)!;
    expect(parsed.traceId).toBe(TRACE);
    expect(parsed.parentId).not.toBe(PARENT);
    expect(parsed.flags).toBe(1);
    expect(child).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(childTraceparent({ ...context, flags: 0 }, 'abcdefabcdefabcd')).toBe(`00-${TRACE}-abcdefabcdefabcd-00`);
  });

  it('makes distinct, non-zero span ids across pool refills', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newSpanId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
  });
});
