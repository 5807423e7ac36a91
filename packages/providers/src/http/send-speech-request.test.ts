import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { sendSpeechRequest, UPSTREAM_READ_AHEAD_BYTES } from './send-speech-request.js';

describe('sendSpeechRequest', () => {
  it('bounds how far an upstream body is read ahead of a slow client', async () => {
    let options: Dispatcher.RequestOptions | undefined;
    const dispatcher = {
      request: async (given: Dispatcher.RequestOptions) => {
        options = given;
        return { statusCode: 200, headers: { 'content-type': 'audio/mpeg' }, body: Readable.from([Buffer.from('audio')]) };
      },
    } as unknown as Dispatcher;
    const audio = await sendSpeechRequest(dispatcher, { method: 'POST', path: '/v1/audio/speech', headers: {}, body: '{}' }, {
      provider: 'openai', signal: new AbortController().signal, headersTimeoutMs: 1000, bodyIdleTimeoutMs: 1000, classifyError: () => ({}),
    });
    expect(Buffer.from((await audio.next()).value as Uint8Array).toString()).toBe('audio');
    // undici's default is 64 KiB per response: a thousand slow listeners held ~64 MiB of read-ahead.
    expect(options?.highWaterMark).toBe(UPSTREAM_READ_AHEAD_BYTES);
    expect(UPSTREAM_READ_AHEAD_BYTES).toBeLessThanOrEqual(16 * 1024);
  });
});
