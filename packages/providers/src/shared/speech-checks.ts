// Checks every adapter applies before calling upstream: URL-safe voice segments, known-model limits,
// and speed clamping with a warning.

import { countCodePoints } from '@voice-router/contracts';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { ProviderDescriptor, SpeechInput } from '../types.js';

/**
 * Encodes a voice id as exactly one URL path segment. `.` and `..` are refused because servers and
 * proxies collapse them (encoded or not); lone surrogates cannot be encoded at all.
 */
export function encodePathSegment(value: string, what = 'voice'): string {
  if (value === '' || value === '.' || value === '..') {
    throw new InvalidSpeechRequestError(`${what} ${quoteName(value)} is not a valid id`);
  }
  try {
    return encodeURIComponent(value);
  } catch {
    throw new InvalidSpeechRequestError(`${what} contains characters that cannot be encoded`);
  }
}

/**
 * For models in the catalog: refuse formats they lack and input over their limit, before spending a
 * round trip. Unknown model ids pass through: upstream may have added them since the catalog was written.
 */
export function checkKnownModel(descriptor: ProviderDescriptor, input: SpeechInput): void {
  const model = descriptor.models.find((candidate) => candidate.id === input.modelId);
  if (!model) return;
  if (!model.responseFormats.includes(input.format)) {
    throw new InvalidSpeechRequestError(`model ${quoteName(model.id)} does not support format ${input.format}`);
  }
  const characters = countCodePoints(input.text);
  if (characters > model.maxInputCharacters) {
    throw new InvalidSpeechRequestError(
      `input is ${characters} characters; model ${quoteName(model.id)} accepts at most ${model.maxInputCharacters}`,
    );
  }
}

export interface ClampedSpeed {
  speed: number;
  warning?: string;
}

export function clampSpeed(provider: string, speed: number, minimum: number, maximum: number): ClampedSpeed {
  const clamped = Math.min(maximum, Math.max(minimum, speed));
  if (clamped === speed) return { speed };
  return { speed: clamped, warning: `speed clamped to ${clamped}: ${provider} accepts ${minimum} to ${maximum}` };
}
