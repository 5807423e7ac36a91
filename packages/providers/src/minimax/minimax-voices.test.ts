// MiniMax's live voice listing against the fake: POST /v1/get_voice, normalization, errors inside HTTP 200.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { MINIMAX_FAKE_CLONED_VOICE } from './minimax-double.js';
import { listMiniMaxVoices, normalizeMiniMaxVoice } from './minimax-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('minimax');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('minimax voice listing', () => {
  it('asks for every voice type in one POST with the Bearer key and normalizes them', async () => {
    const voices = await listMiniMaxVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/get_voice', body: { voice_type: 'all' } });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(voices).toHaveLength(5);
    expect(voices.find((voice) => voice.id === 'English_radiant_girl')).toMatchObject({ name: 'Radiant Girl', language: 'en', labels: { type: 'system' } });
    expect(voices.find((voice) => voice.id === 'male-qn-qingse')!.language).toBe('zh');
    expect(voices.find((voice) => voice.id === MINIMAX_FAKE_CLONED_VOICE.voice_id)).toMatchObject({ language: 'und', labels: { type: 'cloned' } });
    expect(normalizeMiniMaxVoice({ voice_name: 'x' }, 'system')).toBeUndefined();
  });

  it('maps gateway refusals, the error mode and 200 envelopes to categories without upstream text', async () => {
    expect(await rejectionOf(listMiniMaxVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
    fake.setBehavior({ status: 503, times: 1 });
    const error = await rejectionOf(listMiniMaxVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 503 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
    fake.setBehavior({ status: 200, times: 1, markEveryField: true });
    expect(await rejectionOf(listMiniMaxVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'bad_response' });
  });
});
