// W3C Trace Context (https://www.w3.org/TR/trace-context/): reads a caller's `traceparent` header and
// makes the one the router sends on its own hop: the same trace id, a new parent id (our span), the
// sampled flag kept. No SDK: a request pays one regular-expression test and, when traced, 8 random bytes.
import crypto from 'node:crypto';

export interface TraceContext {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** The caller's span: 16 lower-case hex digits, not all zero. */
  parentId: string;
  /** The trace-flags byte as the caller sent it (bit 0: sampled). */
  flags: number;
}

// version-traceid-parentid-flags; a future version may append fields after another '-'.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);

/**
 * The caller's trace context, or undefined when the header is absent or invalid per the
 * specification: version ff, upper-case hex, an all-zero trace or parent id, the wrong length for
 * version 00 (exactly 55 characters), or malformed fields. Unknown higher versions are read by their
 * first four fields, as the specification asks.
 */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  if (!header || header.length < 55) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff') return undefined;
  if (version === '00' && rest !== undefined) return undefined;
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return undefined;
  return { traceId, parentId, flags: Number.parseInt(flags, 16) };
}

// Span ids come from a pool of random bytes refilled when used up: one system call per 512 spans.
const pool = Buffer.alloc(4096);
let offset = pool.length;

export function newSpanId(): string {
  for (;;) {
    if (offset + 8 > pool.length) {
      crypto.randomFillSync(pool);
      offset = 0;
    }
    const id = pool.toString('hex', offset, offset + 8);
    offset += 8;
    if (id !== ZERO_PARENT_ID) return id;
  }
}

/**
 * The `traceparent` for the router's own call downstream: version 00, the caller's trace id, `spanId`
 * as the parent id, and the sampled flag (the only flag version 00 defines; others are set to zero).
 */
export function childTraceparent(context: TraceContext, spanId: string = newSpanId()): string {
  return `00-${context.traceId}-${spanId}-${(context.flags & 0x01) === 1 ? '01' : '00'}`;
}
