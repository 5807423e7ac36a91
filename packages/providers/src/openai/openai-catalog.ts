// OpenAI's speech catalog: models with per-character prices, the built-in voices, and known limits.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

const CLASSIC_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'];
const INSTRUCTABLE_MODELS = ['gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'];

const models: ModelDescriptor[] = [
  { id: 'tts-1', name: 'TTS-1', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 15 }, maxInputCharacters: 4096 },
  { id: 'tts-1-hd', name: 'TTS-1 HD', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 30 }, maxInputCharacters: 4096 },
  // Billed upstream per token; 20 micros per character is an estimate, see the quirk below.
  { id: 'gpt-4o-mini-tts', name: 'GPT-4o mini TTS', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 20 }, maxInputCharacters: 4096 },
  { id: 'gpt-4o-mini-tts-2025-12-15', name: 'GPT-4o mini TTS (2025-12-15)', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 20 }, maxInputCharacters: 4096 },
];

/**
 * OpenAI publishes no gender, accent or style labels for its voices, so none are invented here. Every voice
 * speaks many languages but is tuned for English.
 */
function voice(id: string, modelCompatibility: string[], extraLabels: Record<string, string> = {}): VoiceDescriptor {
  return {
    id,
    name: id.charAt(0).toUpperCase() + id.slice(1),
    language: 'en',
    labels: { multilingual: 'true', ...extraLabels },
    modelCompatibility,
  };
}

const voices: VoiceDescriptor[] = [
  ...['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer'].map((id) => voice(id, CLASSIC_MODELS)),
  voice('ballad', INSTRUCTABLE_MODELS),
  voice('verse', INSTRUCTABLE_MODELS),
  voice('marin', INSTRUCTABLE_MODELS, { note: 'recommended by OpenAI for best quality' }),
  voice('cedar', INSTRUCTABLE_MODELS, { note: 'recommended by OpenAI for best quality' }),
];

export const openAIDescriptor: ProviderDescriptor = {
  id: 'openai',
  name: 'OpenAI',
  website: 'https://platform.openai.com/docs/guides/text-to-speech',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: ['sse streaming (stream_format: sse)', 'opus, aac, flac and wav output', 'custom voice creation'],
    quirks: [
      'input is limited to 4096 characters per request',
      'instructions only work on gpt-4o-mini-tts models; they are dropped with a warning for tts-1 and tts-1-hd',
      'gpt-4o-mini-tts is billed upstream per token ($0.60/1M text in, $12/1M audio out, about $0.015 per minute); 20 micros per character is an estimate that assumes ~15 characters per second of speech plus a margin',
      'ballad, verse, marin and cedar are documented for gpt-4o-mini-tts only',
      'voice ids starting with voice_ are sent as custom voices ({"id": ...})',
      'pcm is 24 kHz 16-bit little-endian mono without a header; there is no sample-rate parameter',
      'a 429 with code insufficient_quota is not retried: the account is out of credit',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
