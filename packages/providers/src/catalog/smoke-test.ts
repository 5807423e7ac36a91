// One real synthesis per provider, on demand or on a schedule (it costs money upstream): a short sentence in
// mp3 with the provider's first model and first voice, read to the end. Success moves `lastSmokeTest`.

import { CircuitOpenError, ProviderError, ProviderUnavailableError } from '../errors.js';
import type { ProviderRegistry } from '../registry.js';
import type { CatalogState } from './catalog-state.js';

export const SMOKE_TEST_TEXT = 'Voice Router smoke test.';

export type SmokeTestOutcome =
  | { providerId: string; ok: true; at: Date; bytes: number; model: string; voice: string }
  | { providerId: string; ok: false; failure: string };

/** Why a smoke test failed, as a router-written word (an upstream failure category), never upstream text. */
function failureOf(error: unknown): string {
  if (error instanceof ProviderError) return error.category;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return 'timeout';
  if (error instanceof CircuitOpenError) return 'circuit_open';
  if (error instanceof ProviderUnavailableError) return 'provider_unavailable';
  return 'internal_error';
}

export async function runSmokeTest(
  registry: ProviderRegistry,
  state: CatalogState | undefined,
  providerId: string,
  options: { timeoutMs: number },
): Promise<SmokeTestOutcome> {
  const descriptor = registry.descriptor(providerId);
  const model = descriptor?.models.find((candidate) => candidate.responseFormats.includes('mp3'));
  const voices = state?.voices(providerId) ?? descriptor?.voices ?? [];
  const voice = voices.find((candidate) => !model || candidate.modelCompatibility.includes(model.id)) ?? voices[0];
  if (!descriptor || !model || !voice) return { providerId, ok: false, failure: 'no_model_or_voice' };
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const result = await registry.synthesize(
      providerId,
      { modelId: model.id, voice: voice.id, text: SMOKE_TEST_TEXT, format: 'mp3', providerOptions: {} },
      { signal },
    );
    let bytes = 0;
    for await (const chunk of result.audio) bytes += chunk.byteLength;
    if (bytes === 0) return { providerId, ok: false, failure: 'upstream_bad_response' };
    const at = new Date();
    state?.recordSmokeTest(providerId, at);
    return { providerId, ok: true, at, bytes, model: model.id, voice: voice.id };
  } catch (error) {
    return { providerId, ok: false, failure: failureOf(error) };
  }
}
