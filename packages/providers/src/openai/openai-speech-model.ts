// Pure mapping from the router's SpeechInput to OpenAI's POST <base>/audio/speech request (base ends in /v1). Exported as a base so
// OpenAI-compatible providers reuse it with their own settings instead of copying it.

import type { OutputDescription } from '@voice-router/audio';
import { countCodePoints } from '@voice-router/contracts';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { NO_PROVIDER_OPTIONS, readProviderOptions, type ProviderOptionsSchema } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { AudioFormat, SpeechInput } from '../types.js';
import type { OpenAISpeechRequestBody } from './openai-api-types.js';

export interface OpenAICompatibleSpeechSettings {
  /** Provider id used in warnings. */
  provider: string;
  /** Endpoint path relative to the base URL, which (as in the OpenAI SDK) already ends in the version path. */
  path: string;
  /** Whether a model accepts `instructions`; others get a warning and the field is dropped. */
  supportsInstructions(modelId: string): boolean;
  speedRange: readonly [number, number];
  maxInputCharacters: number;
  /** provider_options accepted and copied into the body after validation; any other key is refused. */
  providerOptions: ProviderOptionsSchema;
  /**
   * For services that cannot answer in the router's formats: the body fields that choose the upstream format
   * (e.g. `{response_format: 'wav', sample_rate: 24000}`) and how the answer is read, so the adapter converts it.
   * Absent: `response_format` is the router's format and the answer is passed through.
   */
  /**
   * For services with fixed voices whose refusals name no field: each known model's voices. Another voice is
   * refused before sending, naming the model's voices; models absent from the map pass through.
   */
  voicesByModel?: ReadonlyMap<string, readonly string[]>;
  upstreamFormat?(format: AudioFormat): { fields: Record<string, unknown>; output?: OutputDescription };
}

export const openAISpeechSettings: OpenAICompatibleSpeechSettings = {
  provider: 'openai',
  path: '/audio/speech',
  // tts-1, tts-1-hd and their dated snapshots predate instructions.
  supportsInstructions: (modelId) => !/^tts-1(-|$)/.test(modelId),
  speedRange: [0.25, 4],
  maxInputCharacters: 4096,
  providerOptions: NO_PROVIDER_OPTIONS,
};

/** OpenAI custom voices are ids like `voice_abc123` and travel as `{ id }`; built-in names go as strings. */
function mapVoice(voice: string): OpenAISpeechRequestBody['voice'] {
  return voice.startsWith('voice_') ? { id: voice } : voice;
}

export function buildOpenAICompatibleSpeechRequest(
  input: SpeechInput,
  credentials: HttpProviderCredentials,
  settings: OpenAICompatibleSpeechSettings,
): HttpSpeechRequest {
  const characters = countCodePoints(input.text);
  if (characters > settings.maxInputCharacters) {
    throw new InvalidSpeechRequestError(`input is ${characters} characters; ${settings.provider} accepts at most ${settings.maxInputCharacters}`);
  }
  const voices = settings.voicesByModel?.get(input.modelId);
  if (voices && !voices.includes(input.voice)) {
    throw new InvalidSpeechRequestError(`voice ${quoteName(input.voice)} is not a voice of ${settings.provider} model ${input.modelId}; it has ${voices.join(', ')}`);
  }
  const { values, warnings } = readProviderOptions(settings.provider, input.providerOptions, settings.providerOptions);
  // Built as literals, then added to: on Node 20, adding a property to an object made by spreading (`{
  // ...values, model }`) costs ~0.5–1 µs per object (not on Node 24), and this runs for every request.
  const body: OpenAISpeechRequestBody = {
    model: input.modelId,
    input: input.text,
    voice: mapVoice(input.voice),
    response_format: input.format,
  };
  // Validated provider_options; they never replace a mapped field.
  for (const name in values) {
    if (!Object.hasOwn(body, name)) (body as unknown as Record<string, unknown>)[name] = values[name];
  }
  const upstream = settings.upstreamFormat?.(input.format);
  if (upstream) Object.assign(body, upstream.fields);
  if (input.speed !== undefined) {
    const [minimum, maximum] = settings.speedRange;
    const clamped = clampSpeed(settings.provider, input.speed, minimum, maximum);
    body.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (input.instructions !== undefined) {
    if (settings.supportsInstructions(input.modelId)) body.instructions = input.instructions;
    else warnings.push(`instructions ignored: not supported by ${settings.provider} model ${input.modelId}`);
  }
  const request: HttpSpeechRequest = {
    method: 'POST',
    path: settings.path,
    // Hosts configured without a key (self-hosted servers) get no Authorization header at all.
    headers: credentials.apiKey !== ''
      ? { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json', accept: 'application/octet-stream' }
      : { 'content-type': 'application/json', accept: 'application/octet-stream' },
    body: JSON.stringify(body),
    warnings,
  };
  if (upstream?.output) request.output = upstream.output;
  return request;
}

export function buildOpenAISpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  return buildOpenAICompatibleSpeechRequest(input, credentials, openAISpeechSettings);
}
