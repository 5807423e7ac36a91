// Inworld's live voice listing against the fake: Basic auth, normalization, errors.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listInworldVoices, normalizeInworldVoice } from './inworld-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('inworld');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('inworld voice listing', () => {
  it('reads the whole list in one request with the Basic key', async () => {
    const voices = await listInworldVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe('/voices/v1/voices');
    expect(fake.requests[0]!.headers.authorization).toBe(`Basic ${fake.apiKey}`);
    expect(voices).toHaveLength(7);
    expect(voices.find((voice) => voice.id === 'Ashley')).toMatchObject({ name: 'Ashley', language: 'en-US', labels: { gender: 'female', source: 'SYSTEM' } });
    expect(voices.find((voice) => voice.id === 'Diego')!.language).toBe('es-ES');
    expect(voices.find((voice) => voice.id === 'default-workspace__our_narrator')).toMatchObject({ name: 'Our Narrator', labels: { source: 'IVC' } });
  });

  it('normalizes sparse entries and skips entries without an id', () => {
    expect(normalizeInworldVoice({ displayName: 'x' })).toBeUndefined();
    expect(normalizeInworldVoice({ voiceId: 'Solo' })).toMatchObject({ id: 'Solo', name: 'Solo', language: 'und', labels: {} });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listInworldVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listInworldVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });
});
