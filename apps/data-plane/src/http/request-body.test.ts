// readBody: the size limit, a client that leaves mid-body, and that nothing of a body that has been read
// stays reachable from the response's data handler or the request's abort signal (both live as long as
// the response, a stream's whole life).
import { describe, expect, it } from 'vitest';
import { isCollected } from '@voice-router/test-support';
import type { HttpResponse } from '../uws.js';
import { readBody, type BodyResult } from './request-body.js';

type DataHandler = (chunk: ArrayBuffer | Uint8Array, isLast: boolean) => void;

/** The part of a response readBody uses; it keeps its data handler, as uWS does until the response ends. */
function fakeResponse(): { res: HttpResponse; send(chunk: Uint8Array | ArrayBuffer, isLast: boolean): void } {
  let handler: DataHandler | undefined;
  const res = { onData: (next: DataHandler) => ((handler = next), res) } as unknown as HttpResponse;
  return { res, send: (chunk, isLast) => handler!(chunk, isLast) };
}

/** Reads a body of `bytes` bytes in two chunks and keeps only a weak reference to it. */
async function readAndForget(res: ReturnType<typeof fakeResponse>, signal: AbortSignal, bytes: number): Promise<WeakRef<Buffer>> {
  const reading = readBody(res.res, String(bytes), 1 << 20, () => false, signal);
  res.send(new Uint8Array(bytes / 2).fill(1), false);
  res.send(new Uint8Array(bytes / 2).fill(2).buffer, true);
  const result = await reading;
  if (!result.ok) throw new Error(`not read: ${result.reason}`);
  expect(result.body.length).toBe(bytes);
  expect(result.body[0]).toBe(1);
  expect(result.body[bytes - 1]).toBe(2);
  return new WeakRef(result.body);
}

describe('readBody', () => {
  it('joins the chunks, refuses a body over the limit (declared or streamed) and answers aborted when the client leaves', async () => {
    expect(await readBody(fakeResponse().res, '2048', 1024, () => false)).toEqual({ ok: false, reason: 'too_large' });

    const streamed = fakeResponse();
    const tooLarge = readBody(streamed.res, '', 1024, () => false);
    streamed.send(new Uint8Array(600), false);
    streamed.send(new Uint8Array(600), true);
    expect(await tooLarge).toEqual({ ok: false, reason: 'too_large' });

    const left = fakeResponse();
    const controller = new AbortController();
    const aborted = readBody(left.res, '100', 1024, () => false, controller.signal);
    left.send(new Uint8Array(10), false);
    controller.abort();
    expect(await aborted).toEqual({ ok: false, reason: 'aborted' });
    // Data after the end changes nothing.
    left.send(new Uint8Array(10), true);
    expect(await aborted).toEqual({ ok: false, reason: 'aborted' } satisfies BodyResult);
  });

  it('keeps nothing of a body once it is read, while the response and the request signal live on', async () => {
    const res = fakeResponse();
    const controller = new AbortController();
    const body = await readAndForget(res, controller.signal, 64 * 1024);
    expect(await isCollected(body)).toBe(true);
    // Both are still alive (the stream goes on); the signal still aborts cleanly.
    controller.abort();
    expect(controller.signal.aborted).toBe(true);
    expect(res.res).toBeDefined();
  });
});
