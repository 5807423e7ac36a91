// Turns a raw speech request body into a priced plan, or the spec's error for it. Pure: no I/O, so
// every rejection is decided before anything is reserved or sent upstream.
import {
  SPEECH_KNOWN_FIELDS, SpeechRequestSchema, checkSpeechRequest, countCodePoints, parseModel, type ErrorCode, type SpeechRequest,
} from '@voice-router/contracts';
import { costForCharacters } from '@voice-router/ledger';
import { InvalidSpeechRequestError, type ModelDescriptor, type ProviderDescriptor, type SpeechInput } from '@voice-router/providers';

export interface SpeechPlan {
  provider: string;
  model: ModelDescriptor;
  input: SpeechInput;
  characters: number;
  costMicros: bigint;
  warnings: string[];
}

export type PlanResult = { ok: true; plan: SpeechPlan } | { ok: false; code: ErrorCode; details: string };

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function invalid(code: ErrorCode, details: string): PlanResult {
  return { ok: false, code, details };
}

/** Validates provider_options for a provider; throws InvalidSpeechRequestError naming the key (the registry's). */
export type ProviderOptionsReader = (provider: string, options: Record<string, unknown>) => Record<string, unknown>;

export function planSpeech(
  body: Buffer,
  describe: (provider: string) => ProviderDescriptor | undefined,
  readOptions: ProviderOptionsReader = (_provider, options) => options,
): PlanResult {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return invalid('invalid_body', 'malformed JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return invalid('invalid_body', 'body must be a JSON object');
  // The precompiled check answers every valid body; only a body it does not accept meets zod, whose
  // issues are the error the client gets (so the messages are the schema's own).
  let request: SpeechRequest | undefined = checkSpeechRequest(json as Record<string, unknown>);
  if (!request) {
    const parsed = SpeechRequestSchema.safeParse(json);
    if (!parsed.success) {
      const details = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
      return invalid('invalid_body', details.join('; '));
    }
    request = parsed.data;
  }
  const model = parseModel(request.model);
  if (!model.ok) return invalid('invalid_model', model.details);
  const provider = describe(model.provider);
  if (!provider) return invalid('invalid_model', `unknown_provider: ${model.provider}`);
  const modelDescriptor = provider.models.find((candidate) => candidate.id === model.modelId);
  if (!modelDescriptor) return invalid('invalid_model', `unknown_model: ${model.provider}/${model.modelId} (see GET /v1/providers)`);
  if (!modelDescriptor.responseFormats.includes(request.response_format)) {
    return invalid('invalid_body', `response_format ${request.response_format} is not offered by ${request.model}`);
  }
  const voice = typeof request.voice === 'string' ? request.voice : request.voice.id;
  if (CONTROL_CHARACTERS.test(voice)) return invalid('invalid_body', 'voice: control characters are not allowed');
  const characters = countCodePoints(request.input);
  if (characters > modelDescriptor.maxInputCharacters) {
    return invalid('invalid_body', `input: ${characters} characters; ${request.model} accepts at most ${modelDescriptor.maxInputCharacters}`);
  }
  let providerOptions: Record<string, unknown>;
  try {
    providerOptions = readOptions(model.provider, request.provider_options ?? {});
  } catch (error) {
    if (error instanceof InvalidSpeechRequestError) return invalid('invalid_body', error.details);
    throw error;
  }
  const warnings = Object.keys(request)
    .filter((field) => !SPEECH_KNOWN_FIELDS.has(field))
    .map((field) => `ignored field: ${field}`);
  return {
    ok: true,
    plan: {
      // The registry's own id string (equal to the one in the request): long-lived, so every map keyed by provider
      // (the registry, the breakers, the metrics, the request log's member cache) finds it without hashing it anew.
      provider: provider.id,
      model: modelDescriptor,
      characters,
      costMicros: costForCharacters(characters, modelDescriptor.pricing.microsPerUnit),
      warnings,
      input: {
        modelId: model.modelId,
        voice,
        text: request.input,
        format: request.response_format,
        speed: request.speed,
        instructions: request.instructions,
        providerOptions,
      },
    },
  };
}
