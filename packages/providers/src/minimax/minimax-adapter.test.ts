// MiniMax through the HTTP adapter against its double: errors inside HTTP 200 are classified (never a success
// without audio), a non-zero code mid-stream ends the stream, and hex SSE audio decodes to both formats.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, UpstreamInvalidRequestError } from '../errors.js';
import { ConnectionPools } from '../http/connection-pools.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { collect, rejectionOf } from '../__fixtures__/speech-helpers.js';
import type { SpeechAdapter, SpeechInput } from '../types.js';
import { miniMaxProvider } from './index.js';

let fake: FakeProviderServer;
let adapter: SpeechAdapter;
let pools: ConnectionPools;
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'speech-2.8-turbo',
  voice: 'English_CalmWoman',
  text: 'Hello from the adapter test.',
  format: 'pcm',
  providerOptions: {},
  ...overrides,
});
const options = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('minimax');
  pools = new ConnectionPools();
  adapter = miniMaxProvider.create({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, { attemptTimeoutMs: 2000, pools });
});
afterAll(async () => {
  await adapter.close?.();
  await pools.close();
  await fake.close();
});
beforeEach(() => fake.setBehavior('normal'));

describe('minimax adapter', () => {
  it('decodes the hex SSE stream into 24 kHz pcm of the spoken length', async () => {
    const bytes = await collect((await adapter.synthesize(input(), options())).audio);
    expect(Math.abs(bytes.length / 2 / 24000 - Math.max(0.5, input().text.length / 15))).toBeLessThan(0.001);
  });

  it('refuses an unknown voice answered as HTTP 200 + base_resp 20132, naming the voice and no upstream text', async () => {
    const error = await rejectionOf(adapter.synthesize(input({ voice: 'Nobody_at_all' }), options()));
    expect(error).toBeInstanceOf(UpstreamInvalidRequestError);
    expect(error).toMatchObject({ field: 'voice', statusCode: 200 });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(fake.leakMarker);
  });

  it('classifies a marked HTTP 200 envelope it cannot read as a bad response, not as audio', async () => {
    fake.setBehavior({ status: 200, times: 1, markEveryField: true });
    const error = await rejectionOf(adapter.synthesize(input(), options()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ category: 'upstream_bad_response', statusCode: 200, isRetryable: false });
    expect((error as Error).message).not.toContain(fake.leakMarker);
  });
});
