// Helpers shared by the providers' tests (fixtures are excluded from the build).

import type { SpeechInput } from '../types.js';

export async function collect(audio: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of audio) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Resolves with the rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

export function openAIInput(overrides: Partial<SpeechInput> = {}): SpeechInput {
  return { modelId: 'tts-1', voice: 'alloy', text: 'Hello from the router tests.', format: 'pcm', providerOptions: {}, ...overrides };
}

export { probeAudio, probeAudio as probeMp3, startsWithMp3FrameSync } from '@voice-router/test-support';
